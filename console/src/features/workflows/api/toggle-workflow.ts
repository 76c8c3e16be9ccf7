import { useMutation, useQueryClient } from '@tanstack/react-query';

import { storeWorkflow } from '@/features/workflows/api/get-workflow';
import { api, unwrap } from '@/lib/api-client';

/** PATCH /v2/workflows/{id} {paused} (execute): the Active toggle (on = not paused). */
export function setWorkflowPaused({ id, paused }: { id: string; paused: boolean }) {
  return unwrap(api.PATCH('/v2/workflows/{id}', { params: { path: { id } }, body: { paused } }));
}

/** The Active toggle's call; the toggle is disabled while it is pending (spec 001 §4). */
export function useSetWorkflowPaused() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setWorkflowPaused,
    onSuccess: (r) => storeWorkflow(queryClient, r.workflow),
  });
}
