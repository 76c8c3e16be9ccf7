import { useMutation, useQueryClient } from '@tanstack/react-query';

import { storeWorkflow } from '@/features/workflows/api/get-workflow';
import type { SaveWorkflowRequest, WorkflowMessage } from '@/lib/api/types';
import { api, unwrap } from '@/lib/api-client';

/** POST /v2/workflows/save/{id} (edit): nodes, edges and the e-mail settings. */
export function saveWorkflow({ id, ...body }: SaveWorkflowRequest & { id: string }) {
  return unwrap(api.POST('/v2/workflows/save/{id}', { params: { path: { id } }, body }));
}

export function useSaveWorkflow(options: { onSuccess?: (r: WorkflowMessage) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveWorkflow,
    onSuccess: (r) => {
      storeWorkflow(queryClient, r.workflow);
      options.onSuccess?.(r);
    },
  });
}
