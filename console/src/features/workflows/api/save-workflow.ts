import { useMutation, useQueryClient } from '@tanstack/react-query';

import { workflowsApi } from '@/features/workflows/api/client';
import { storeWorkflow } from '@/features/workflows/api/get-workflow';
import type { SaveWorkflowBody, WorkflowMessage } from '@/features/workflows/api/types';
import { unwrap } from '@/lib/api-client';

/** POST /v2/workflows/save/{id} (edit): nodes, edges and the e-mail settings. */
export function saveWorkflow({ id, ...body }: SaveWorkflowBody & { id: string }) {
  return unwrap(workflowsApi.POST('/v2/workflows/save/{id}', { params: { path: { id } }, body }));
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
