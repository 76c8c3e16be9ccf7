import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';

import { ApiError } from '@/lib/api-client';
import { messageOf, notify } from '@/lib/notify';

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: { silent?: boolean };
    mutationMeta: { silent?: boolean };
  }
}

/**
 * Every admin metrics query's key starts with this (features/admin/api): a change to the
 * organizations or users they count makes them all stale, so the portal's figures follow at once.
 */
export const METRICS_KEY = ['metrics'] as const;

/** Errors appear as toasts (spec 001 §8) unless a query or mutation says it handles them itself. */
export function createQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.silent) notify.error(messageOf(error));
      },
    }),
    mutationCache: new MutationCache({
      onError: (error, _vars, _ctx, mutation) => {
        if (!mutation.meta?.silent) notify.error(messageOf(error));
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        retry: (count, error) => {
          // Client errors and network failures already said what is wrong.
          if (error instanceof ApiError && (error.status === 0 || error.status < 500)) return false;
          return count < 1;
        },
      },
    },
  });
}
