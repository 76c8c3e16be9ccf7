import type { QueryClient } from '@tanstack/react-query';

import { datasetKeys } from '@/features/datasets/api/keys';

/**
 * The API measures a dataset's file count and size in the background after a change (the details
 * answer carries the last numbers), so the counts are read again a little later too.
 */
export const USAGE_SETTLE_MS = 2000;

/** After files changed: the listing, the dataset's counts and the lists' sizes are stale. */
export function invalidateDatasetFiles(queryClient: QueryClient, id: string) {
  void queryClient.invalidateQueries({ queryKey: datasetKeys.files(id) });
  const counts = () => {
    void queryClient.invalidateQueries({ queryKey: datasetKeys.detail(id) });
    void queryClient.invalidateQueries({ queryKey: datasetKeys.lists() });
  };
  counts();
  setTimeout(counts, USAGE_SETTLE_MS);
}
