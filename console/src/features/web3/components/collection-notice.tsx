import { Alert, Loader } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';

import type { CollectionView } from '@/features/web3/api/types';
import { indexingLabel } from '@/features/web3/utils/status';

/** Says when a collection's graphs are not whole: still indexing, or its job failed. */
export function CollectionNotice({ collection }: { collection: CollectionView }) {
  if (collection.status === 'running') {
    return (
      <Alert color="blue" variant="light" title="Indexing…" icon={<Loader size={16} />} role="status">
        {indexingLabel(collection)}. The graphs show the transfers stored so far and follow as more are stored.
      </Alert>
    );
  }
  if (collection.status === 'failed') {
    return (
      <Alert color="red" variant="light" title="Indexing failed" icon={<IconAlertCircle size={16} />} role="alert">
        {collection.error ?? 'The indexing job stopped.'} It resumes where it stopped when the API starts again; the graphs show what was stored.
      </Alert>
    );
  }
  return null;
}
