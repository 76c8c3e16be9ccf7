import { Button, Center, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { Link, useParams } from 'react-router';

import { paths } from '@/config/paths';
import type { DatasetView } from '@/lib/api/types';
import { DatasetCreateForm } from '@/features/datasets/components/dataset-create-form';
import { DatasetDetail } from '@/features/datasets/components/dataset-detail';
import { DatasetEditForm } from '@/features/datasets/components/dataset-edit-form';
import { DatasetsList } from '@/features/datasets/components/datasets-list';
import { useFlighting } from '@/features/flighting/api/get-flighting';
import { ShareModal } from '@/features/sharing/components/share-modal';
import { useSession } from '@/lib/auth';
import { isFeatureEnabled } from '@/lib/flighting';

export const DATASETS_DISABLED = 'Datasets are not enabled for your role';

/**
 * The dataset screens only when the `datasets` flag lets the user's role in (spec 000 §6), as the
 * sidebar decides; the API refuses the calls anyway (403). The flags are the layout's query (and
 * persisted), so this rarely waits; if they cannot be loaded the screen renders and its own calls
 * say what the API thinks.
 */
function DatasetsGate({ children }: { children: ReactNode }) {
  const { user } = useSession();
  const flighting = useFlighting();
  const flags = flighting.data?.flightings;
  if (!flags && flighting.isPending) {
    return (
      <Center h="40vh" role="status" aria-label="Loading">
        <Loader />
      </Center>
    );
  }
  if (flags && !isFeatureEnabled(flags, 'datasets', user?.role)) {
    return (
      <Center mih="50vh">
        <Stack align="center" gap="sm" maw={420}>
          <ThemeIcon size={56} radius="xl" variant="light" color="gray">
            <IconLock size={30} />
          </ThemeIcon>
          <Title order={2}>Datasets</Title>
          <Text c="dimmed" ta="center">
            {DATASETS_DISABLED}.
          </Text>
          <Button component={Link} to={paths.home.getHref()} variant="light">
            Back to Home
          </Button>
        </Stack>
      </Center>
    );
  }
  return children;
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

/** /datasets/{id} */
export function DatasetRoute() {
  const { id = '' } = useParams();
  const share = useDatasetShare();
  return (
    <DatasetsGate>
      <DatasetDetail key={id} id={id} onShare={share.open} />
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
