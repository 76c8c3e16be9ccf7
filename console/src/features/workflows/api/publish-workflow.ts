import { useMutation, useQueryClient } from '@tanstack/react-query';

import { storeWorkflow } from '@/features/workflows/api/get-workflow';
import type { WorkflowMessage } from '@/lib/api/types';
import { api, unwrap } from '@/lib/api-client';

/** The file a manual workflow's DAG lives in (spec 001 §3). */
export function dagFileName(workflowId: string) {
  return `${workflowId}_dag.py`;
}

export type Publication = { id: string; projectId: string } & ({ visual: true } | { visual: false; files: string[] });

/**
 * Publishing (execute on the workflow, edit on the project, spec 001 §4): a visual workflow sends
 * only project_id (POST /v2/workflows/visual/publish/{id}); a manual one its DAG file
 * '{id}_dag.py' and the selected files (POST /v2/workflows/publish/{id}).
 */
export function publishWorkflow(p: Publication) {
  const path = { id: p.id };
  if (p.visual) return unwrap(api.POST('/v2/workflows/visual/publish/{id}', { params: { path }, body: { project_id: p.projectId } }));
  return unwrap(
    api.POST('/v2/workflows/publish/{id}', {
      params: { path },
      body: { project_id: p.projectId, file_name: dagFileName(p.id), files: p.files },
    }),
  );
}

export function usePublishWorkflow(options: { onSuccess?: (r: WorkflowMessage) => void } = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: publishWorkflow,
    onSuccess: (r) => {
      storeWorkflow(queryClient, r.workflow);
      options.onSuccess?.(r);
    },
  });
}
