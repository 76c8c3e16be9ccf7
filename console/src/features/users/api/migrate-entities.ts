import { useMutation, useQueryClient } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

/** The kinds whose ownership moves together (spec 001 §9: insight/application, project, workflow, dataset). */
export const MIGRATION_ENTITY_TYPES = [
  { value: 'insight', label: 'Insights and apps', one: 'insight', many: 'insights' },
  { value: 'project', label: 'Projects', one: 'project', many: 'projects' },
  { value: 'workflow', label: 'Workflows', one: 'workflow', many: 'workflows' },
  { value: 'dataset', label: 'Datasets', one: 'dataset', many: 'datasets' },
] as const;

export type MigrationEntityType = (typeof MIGRATION_ENTITY_TYPES)[number]['value'];

export type MigrateEntities = { entityType: MigrationEntityType; sourceUserId: string; destinationUserId: string };

/** POST /v1/auth/migrateEntityOwner: every asset of a kind from one user to another of the same organization. */
export function migrateEntities(body: MigrateEntities) {
  return unwrap(api.POST('/v1/auth/migrateEntityOwner', { body }));
}

/** Owners change on every list and card, so everything cached is asked for again. */
export function useMigrateEntities(options: { onSuccess?: (migrated: number) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: migrateEntities,
    meta: { silent: true },
    onSuccess: (res) => {
      void queryClient.invalidateQueries();
      options.onSuccess?.(res.migrated);
    },
  });
}
