import { useMutation, useQueryClient } from '@tanstack/react-query';

import { workflowKeys } from '@/features/workflows/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** POST /v2/workflows/delete/{id} (edit): the workflow, its resource, runs and pods. */
export function deleteWorkflow(id: string) {
  return unwrap(api.POST('/v2/workflows/delete/{id}', { params: { path: { id } } }));
}

export function useDeleteWorkflow(options: { onSuccess?: (message: string) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteWorkflow,
    onSuccess: (r, id) => {
      queryClient.removeQueries({ queryKey: workflowKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: workflowKeys.lists() });
      options.onSuccess?.(r.message);
    },
  });
}
