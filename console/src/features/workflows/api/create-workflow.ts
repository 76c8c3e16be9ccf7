import { useMutation, useQueryClient } from '@tanstack/react-query';

import { storeWorkflow } from '@/features/workflows/api/get-workflow';
import type { NewWorkflowFields, WorkflowMessage } from '@/lib/api/types';
import { api, unwrap } from '@/lib/api-client';

/** POST /v2/workflows (execute on the project): a manual one also gets a starter `{id}_dag.py`. */
export function createWorkflow(body: NewWorkflowFields) {
  return unwrap(api.POST('/v2/workflows', { body }));
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
