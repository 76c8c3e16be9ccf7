import { useMutation, useQueryClient } from '@tanstack/react-query';

import type { LegacyProjectAnswer } from '@/lib/api/types';
import { notebookKeys } from '@/features/notebooks/api/keys';
import { api, unwrap } from '@/lib/api-client';

/**
 * POST /v1/projects/ludisproject {template, name?}: a project with the template's notebooks,
 * reading the organization's sample dataset the template names.
 */
export function createTemplateProject(request: { template: string; name?: string }) {
  return unwrap(api.POST('/v1/projects/ludisproject', { body: request }));
}

export function useCreateTemplateProject(options: { onSuccess?: (r: LegacyProjectAnswer) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createTemplateProject,
    // The dialog shows the refusal itself.
    meta: { silent: true },
    onSuccess: (r) => {
      void queryClient.invalidateQueries({ queryKey: notebookKeys.lists() });
      options.onSuccess?.(r);
    },
  });
}
