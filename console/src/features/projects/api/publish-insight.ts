import { useMutation, useQueryClient } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { InsightMessageResponse, InsightType, Language } from '@/lib/api/types';

export type InsightPublication = {
  projectId: string;
  name: string;
  description: string;
  appType: Exclude<InsightType, 'user_report'>;
  language: Language;
  /** The driver file, relative to the repository root. */
  driverFile: string;
  /** The hardware size of its pod; null: the list's default for apps and reports. */
  sizeId?: string | null;
};

/**
 * POST /v1/applications from a project (contract "Publishing an insight from a project"): an
 * Insight built from the repository at its head commit (edit access on the project).
 */
export function publishInsight(p: InsightPublication) {
  const application = {
    name: p.name,
    description: p.description,
    app_type: p.appType,
    language: p.language,
    project_id: p.projectId,
    publish_filenames: [p.driverFile],
    ...(p.sizeId ? { size_id: p.sizeId } : {}),
  };
  return unwrap(api.POST('/v1/applications', { body: { application } }));
}

/**
 * "Replace an existing app's files": POST /v1/applications/restart {application_id,
 * publish_filenames} (edit access on the insight, view on the project).
 */
export function replaceInsightFiles(applicationId: string, driverFile: string) {
  return unwrap(
    api.POST('/v1/applications/restart', { body: { application_id: applicationId, publish_filenames: [driverFile] } }),
  );
}

export type Publication = { kind: 'new'; insight: InsightPublication } | { kind: 'existing'; projectId: string; applicationId: string; driverFile: string };

export function usePublishInsight(options: { onSuccess?: (r: InsightMessageResponse, p: Publication) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (p: Publication) => (p.kind === 'new' ? publishInsight(p.insight) : replaceInsightFiles(p.applicationId, p.driverFile)),
    meta: { silent: true },
    onSuccess: (r, p) => {
      const projectId = p.kind === 'new' ? p.insight.projectId : p.projectId;
      void queryClient.invalidateQueries({ queryKey: projectKeys.apps(projectId) });
      options.onSuccess?.(r, p);
    },
  });
}
