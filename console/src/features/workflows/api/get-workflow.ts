import { type QueryClient, queryOptions, useQuery } from '@tanstack/react-query';

import { workflowKeys } from '@/features/workflows/api/keys';
import type { WorkflowView } from '@/lib/api/types';
import { api, unwrap } from '@/lib/api-client';

/** GET /v2/workflows/{id} (view access). */
export async function getWorkflow(id: string, signal?: AbortSignal) {
  const { workflow } = await unwrap(api.GET('/v2/workflows/{id}', { params: { path: { id } }, signal }));
  return workflow;
}

export function getWorkflowQueryOptions(id: string) {
  return queryOptions({
    queryKey: workflowKeys.detail(id),
    queryFn: ({ signal }) => getWorkflow(id, signal),
    // The page explains a failure in place (404 for a workflow the caller may not see).
    meta: { silent: true },
  });
}

/**
 * The workflow; `pollMs` refetches it while it is not settled (initializing after a publish, or a
 * run in flight), so the status and the last run follow the operator.
 */
export function useWorkflow(id: string, options: { pollMs?: (w: WorkflowView | undefined) => number | false } = {}) {
  return useQuery({ ...getWorkflowQueryOptions(id), refetchInterval: options.pollMs ? (q) => options.pollMs!(q.state.data) : undefined });
}

/** A workflow an answer brought goes straight into its query, and every list refreshes. */
export function storeWorkflow(queryClient: QueryClient, workflow: WorkflowView) {
  queryClient.setQueryData(workflowKeys.detail(workflow.id), workflow);
  void queryClient.invalidateQueries({ queryKey: workflowKeys.lists() });
}
