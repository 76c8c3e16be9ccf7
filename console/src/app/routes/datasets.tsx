import { type ReactNode, useState } from 'react';
import { useParams } from 'react-router';

import { FeatureGate, featureDisabledMessage } from '@/app/routes/feature-gate';
import type { DatasetView } from '@/lib/api/types';
import { DiscussionButton } from '@/features/comments/components/discussion-button';
import { DatasetCreateForm } from '@/features/datasets/components/dataset-create-form';
import { DatasetDetail } from '@/features/datasets/components/dataset-detail';
import { DatasetEditForm } from '@/features/datasets/components/dataset-edit-form';
import { DatasetsList } from '@/features/datasets/components/datasets-list';
import { ShareModal } from '@/features/sharing/components/share-modal';

export const DATASETS_DISABLED = featureDisabledMessage('Datasets');

function DatasetsGate({ children }: { children: ReactNode }) {
  return (
    <FeatureGate feature="datasets" title="Datasets">
      {children}
    </FeatureGate>
  );
}

/** The Share dialog of the sharing feature for a dataset (no 'execute' level for datasets). */
function useDatasetShare() {
  const [sharing, setSharing] = useState<DatasetView | null>(null);
  const dialog = sharing && (
    <ShareModal opened entityId={sharing.id} entityType="Dataset" entityLabel={sharing.name} onClose={() => setSharing(null)} />
  );
  return { open: setSharing, dialog };
}

/** /datasets */
export function DatasetsRoute() {
  const share = useDatasetShare();
  return (
    <DatasetsGate>
      <DatasetsList onShare={share.open} />
      {share.dialog}
    </DatasetsGate>
  );
}

/** /datasets/new */
export function DatasetNewRoute() {
  return (
    <DatasetsGate>
      <DatasetCreateForm />
    </DatasetsGate>
  );
}

/** /datasets/{id}, with its discussion (comments feature) and Share (sharing feature). */
export function DatasetRoute() {
  const { id = '' } = useParams();
  const share = useDatasetShare();
  return (
    <DatasetsGate>
      <DatasetDetail key={id} id={id} onShare={share.open} discussion={<DiscussionButton referenceId={id} />} />
      {share.dialog}
    </DatasetsGate>
  );
}

/** /datasets/edit/{id} */
export function DatasetEditRoute() {
  const { id = '' } = useParams();
  return (
    <DatasetsGate>
      <DatasetEditForm key={id} id={id} />
    </DatasetsGate>
  );
}
