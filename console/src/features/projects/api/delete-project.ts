import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import type { MessageAnswer } from '@/features/projects/api/types';
import { untyped } from '@/lib/api-client';

/** DELETE /v2/projects/{id} (edit access). */
export function deleteProject(id: string) {
  return untyped<MessageAnswer>('DELETE', '/v2/projects/{id}', { params: { path: { id } } });
}

export function useDeleteProject(options: { onSuccess?: (r: MessageAnswer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteProject,
    onSuccess: (r, id) => {
      queryClient.removeQueries({ queryKey: projectKeys.detail(id) });
      queryClient.removeQueries({ queryKey: projectKeys.repo(id) });
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
      options.onSuccess?.(r);
    },
  });
}
