import { queryOptions, useQuery } from '@tanstack/react-query';

import { api, unwrap } from '@/lib/api-client';

export const assistantKeys = { status: ['assistant', 'status'] as const };

/** GET /v1/llm/status: whether an assistant is configured, its model, or how to configure one. */
export function getAssistantStatus() {
  return unwrap(api.GET('/v1/llm/status'));
}

export function getAssistantStatusQueryOptions() {
  return queryOptions({ queryKey: assistantKeys.status, queryFn: getAssistantStatus, staleTime: 5 * 60_000 });
}

export function useAssistantStatus() {
  return useQuery(getAssistantStatusQueryOptions());
}
