import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { NewEnvVar } from '@/lib/api/types';

/** POST /v2/projects/envvar {project_uid, key, value} (edit access); 400 'Please add valid inputs'. */
export function createEnvVar(variable: NewEnvVar) {
  return unwrap(api.POST('/v2/projects/envvar', { body: variable }));
}

export function useCreateEnvVar(projectId: string, options: { onSuccess?: () => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: Omit<NewEnvVar, 'project_uid'>) => createEnvVar({ project_uid: projectId, ...v }),
    meta: { silent: true },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: projectKeys.envVars(projectId) });
      options.onSuccess?.();
    },
  });
}
