import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** DELETE /v2/projects/envvar/{id} (edit access). */
export function deleteEnvVar(id: string) {
  return unwrap(api.DELETE('/v2/projects/envvar/{id}', { params: { path: { id } } }));
}

export function useDeleteEnvVar(projectId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteEnvVar,
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: projectKeys.envVars(projectId) }),
  });
}
