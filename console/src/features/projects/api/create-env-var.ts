import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import type { EnvVarAnswer } from '@/features/projects/api/types';
import { untyped } from '@/lib/api-client';

export type NewEnvVar = { project_uid: string; key: string; value: string };

/** POST /v2/projects/envvar {project_uid, key, value} (edit access); 400 'Please add valid inputs'. */
export function createEnvVar(variable: NewEnvVar) {
  return untyped<EnvVarAnswer>('POST', '/v2/projects/envvar', { body: variable });
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
