import { type QueryClient, useQuery } from '@tanstack/react-query';

import { datasetKeys } from '@/features/datasets/api/keys';
import type { DatasetResponse } from '@/lib/api/types';

/**
 * Files reach object storage straight from the browser, so the API learns of them only when it
 * measures the dataset again: in the background when the details are asked for, at most every
 * 10 s per dataset (and the operator every minute). After a change the console asks again every
 * USAGE_POLL_MS, up to USAGE_POLL_TRIES times (past the API's 10 s pause), until the numbers move.
 */
export const USAGE_POLL_MS = 3000;
export const USAGE_POLL_TRIES = 6;

type Usage = { object_count: number; bytes: number } | undefined;

const usageOf = (queryClient: QueryClient, id: string): Usage => queryClient.getQueryData<DatasetResponse>(datasetKeys.detail(id))?.dataset;

const sameUsage = (a: Usage, b: Usage) => !!a && !!b && a.object_count === b.object_count && a.bytes === b.bytes;

let watches = 0;

/**
 * Asks for the dataset's details until its file count or size differ from `before` (or the tries
 * run out, or nobody shows the dataset any more). While it asks, `useUsageMeasuring` is true, so
 * the page says the numbers are being counted instead of showing ones that disagree with its list.
 * A newer change starts a newer watch, which replaces this one.
 */
function watchUsage(queryClient: QueryClient, id: string) {
  const before = usageOf(queryClient, id);
  const watch = ++watches;
  const key = datasetKeys.usageWatch(id);
  queryClient.setQueryData(key, watch);
  const current = () => queryClient.getQueryData(key) === watch;
  const stop = () => {
    if (current()) queryClient.setQueryData(key, 0);
  };
  let tries = 0;
  let next: ReturnType<typeof setTimeout> | undefined;
  // The next ask is timed from this one's start, not its answer: one every USAGE_POLL_MS.
  const tick = () => {
    if (!current()) return;
    const observed = queryClient.getQueryCache().find({ queryKey: datasetKeys.detail(id), exact: true })?.getObserversCount() ?? 0;
    if (!before || observed === 0) return stop();
    tries += 1;
    const last = tries >= USAGE_POLL_TRIES;
    if (!last) next = setTimeout(tick, USAGE_POLL_MS);
    void queryClient.refetchQueries({ queryKey: datasetKeys.detail(id), exact: true }).then(() => {
      if (!current()) return;
      const moved = !sameUsage(before, usageOf(queryClient, id));
      if (!moved && !last) return;
      clearTimeout(next);
      void queryClient.invalidateQueries({ queryKey: datasetKeys.lists() });
      stop();
    });
  };
  void tick();
}

/** Whether the dataset's file count and size are being measured again after a change. */
export function useUsageMeasuring(id: string): boolean {
  const watch = useQuery({ queryKey: datasetKeys.usageWatch(id), queryFn: () => 0, enabled: false, staleTime: Infinity });
  return !!watch.data;
}

/** After files changed: the listing, the dataset's counts and the lists' sizes are stale. */
export function invalidateDatasetFiles(queryClient: QueryClient, id: string) {
  void queryClient.invalidateQueries({ queryKey: datasetKeys.files(id) });
  void queryClient.invalidateQueries({ queryKey: datasetKeys.lists() });
  watchUsage(queryClient, id);
}
