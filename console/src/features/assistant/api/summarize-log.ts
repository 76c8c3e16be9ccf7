import { useMutation } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

/** The console's names of the kinds whose logs are summarised. */
export type LogEntity = 'project' | 'application' | 'workflow';

/** POST /v1/llm/{id}/logsummary {logs, entity}: a short summary of the log (spec 001 §7). */
export function summarizeLog(id: string, logs: string, entity: LogEntity) {
  return unwrap(api.POST('/v1/llm/{id}/logsummary', { params: { path: { id } }, body: { logs, entity } }));
}

/** The caller says the failure itself ('Could not retrieve log summary.'). */
export function useSummarizeLog(id: string, entity: LogEntity) {
  return useMutation({
    mutationFn: (logs: string) => summarizeLog(id, logs, entity),
    meta: { silent: true },
  });
}
