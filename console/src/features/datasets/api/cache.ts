import type { QueryClient } from '@tanstack/react-query';

import { datasetKeys } from '@/features/datasets/api/keys';

/** After files changed: the listing, the dataset's counts and the lists' sizes are stale. */
export function invalidateDatasetFiles(queryClient: QueryClient, id: string) {
  void queryClient.invalidateQueries({ queryKey: datasetKeys.files(id) });
  void queryClient.invalidateQueries({ queryKey: datasetKeys.detail(id) });
  void queryClient.invalidateQueries({ queryKey: datasetKeys.lists() });
}
