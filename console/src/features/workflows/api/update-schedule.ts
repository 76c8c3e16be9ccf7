import { useMutation, useQueryClient } from '@tanstack/react-query';

import { workflowsApi } from '@/features/workflows/api/client';
import { workflowKeys } from '@/features/workflows/api/keys';
import type { ScheduleBody, WorkflowView } from '@/features/workflows/api/types';
import { unwrap } from '@/lib/api-client';

/**
 * POST /v2/workflows/schedule/{id} {value, project_id, var_id?} (execute on the workflow, edit on
 * the project): the UTC cron or 'None', kept on the resource and in the project's variable.
 */
export function updateSchedule({ id, ...body }: ScheduleBody & { id: string }) {
  return unwrap(workflowsApi.POST('/v2/workflows/schedule/{id}', { params: { path: { id } }, body }));
}

export function useUpdateSchedule(options: { onSuccess?: (message: string) => void; onError?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSchedule,
    // The editor says 'Failed to Update Workflow Schedule' itself (spec 001 §8).
    meta: { silent: true },
    onSuccess: (r, v) => {
      queryClient.setQueryData<WorkflowView>(workflowKeys.detail(v.id), (w) => (w ? { ...w, schedule: r.schedule } : w));
      void queryClient.invalidateQueries({ queryKey: workflowKeys.lists() });
      options.onSuccess?.(r.message);
    },
    onError: () => options.onError?.(),
  });
}
