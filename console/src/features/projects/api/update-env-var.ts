import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';

/** PUT /v2/projects/envvar/{id} {value} (edit access). */
export function updateEnvVar(id: string, value: string) {
  return unwrap(api.PUT('/v2/projects/envvar/{id}', { params: { path: { id } }, body: { value } }));
}

export function useUpdateEnvVar(projectId: string, options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, value }: { id: string; value: string }) => updateEnvVar(id, value),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.envVars(projectId) });
      options.onSuccess?.();
    },
  });
}
