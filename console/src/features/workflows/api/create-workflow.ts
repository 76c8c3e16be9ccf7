import { useMutation, useQueryClient } from '@tanstack/react-query';

import { workflowsApi } from '@/features/workflows/api/client';
import { storeWorkflow } from '@/features/workflows/api/get-workflow';
import type { CreateWorkflowBody, WorkflowMessage } from '@/features/workflows/api/types';
import { unwrap } from '@/lib/api-client';

/** POST /v2/workflows (execute on the project): a manual one also gets a starter `{id}_dag.py`. */
export function createWorkflow(body: CreateWorkflowBody) {
  return unwrap(workflowsApi.POST('/v2/workflows', { body }));
}

export function useCreateWorkflow(options: { onSuccess?: (r: WorkflowMessage) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createWorkflow,
    // The form shows a refusal under its fields.
    meta: { silent: true },
    onSuccess: (r) => {
      storeWorkflow(queryClient, r.workflow);
      options.onSuccess?.(r);
    },
  });
}
