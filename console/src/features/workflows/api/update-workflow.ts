import { useMutation, useQueryClient } from '@tanstack/react-query';

import { storeWorkflow } from '@/features/workflows/api/get-workflow';
import type { WorkflowChanges, WorkflowMessage } from '@/lib/api/types';
import { api, unwrap } from '@/lib/api-client';

/** PUT /v2/workflows/{id} (edit): the name and the e-mail settings. */
export function updateWorkflow({ id, ...body }: WorkflowChanges & { id: string }) {
  return unwrap(api.PUT('/v2/workflows/{id}', { params: { path: { id } }, body }));
}

export function useUpdateWorkflow(options: { onSuccess?: (r: WorkflowMessage) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateWorkflow,
    meta: { silent: true },
    onSuccess: (r) => {
      storeWorkflow(queryClient, r.workflow);
      options.onSuccess?.(r);
    },
  });
}
