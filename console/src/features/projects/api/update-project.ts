import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { ProjectAnswer, ProjectChanges, ProjectDetail } from '@/lib/api/types';

/** PUT /v2/projects/{id} {entity} (edit access): name, description, image, card image, datasets. */
export function updateProject(id: string, entity: ProjectChanges) {
  return unwrap(api.PUT('/v2/projects/{id}', { params: { path: { id } }, body: { entity } }));
}

export function useUpdateProject(
  options: { onSuccess?: (r: ProjectAnswer) => void; onError?: (e: Error) => void; silent?: boolean } = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, entity }: { id: string; entity: ProjectChanges }) => updateProject(id, entity),
    meta: { silent: options.silent },
    onSuccess: (r, { id }) => {
      queryClient.setQueryData<ProjectDetail>(projectKeys.detail(id), (old) => (old ? { ...old, project: r.project } : old));
      void queryClient.invalidateQueries({ queryKey: projectKeys.lists() });
      options.onSuccess?.(r);
    },
    onError: (e) => options.onError?.(e),
  });
}
