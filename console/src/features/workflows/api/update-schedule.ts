import { useMutation, useQueryClient } from '@tanstack/react-query';

import { workflowKeys } from '@/features/workflows/api/keys';
import type { ScheduleRequest, WorkflowView } from '@/lib/api/types';
import { api, unwrap } from '@/lib/api-client';

/**
 * POST /v2/workflows/schedule/{id} {value, project_id, var_id?} (execute on the workflow, edit on
 * the project): the UTC cron or 'None', kept on the resource and in the project's variable.
 */
export function updateSchedule({ id, ...body }: ScheduleRequest & { id: string }) {
  return unwrap(api.POST('/v2/workflows/schedule/{id}', { params: { path: { id } }, body }));
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
