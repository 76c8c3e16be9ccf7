import { Alert, Button, Group, Paper, Skeleton, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import { useDataset } from '@/features/datasets/api/get-dataset';
import type { DatasetView } from '@/lib/api/types';
import { useUpdateDataset } from '@/features/datasets/api/update-dataset';
import { canEdit, EDIT_ACCESS_NEEDED } from '@/features/datasets/utils/access';
import { ignoreBlank } from '@/features/datasets/utils/files';
import { DATASET_MESSAGES } from '@/features/datasets/utils/messages';
import { notify } from '@/lib/notify';

type Errors = { name?: string; description?: string };

/** Both fields are required (spec 001 §5). */
export function validateDatasetEdit(v: { name: string; description: string }): Errors {
  return {
    name: v.name.trim() ? undefined : DATASET_MESSAGES.emptyName,
    description: v.description.trim() ? undefined : DATASET_MESSAGES.emptyDescription,
  };
}

function EditForm({ dataset }: { dataset: DatasetView }) {
  const navigate = useNavigate();
  const [name, setName] = useState(dataset.name);
  const [description, setDescription] = useState(dataset.description ?? '');
  const [errors, setErrors] = useState<Errors>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const update = useUpdateDataset({
    onSuccess: () => {
      notify.success(DATASET_MESSAGES.updated);
      navigate(paths.dataset.getHref(dataset.id));
    },
    onError: (e) => {
      setServerError(e.message);
      notify.error(DATASET_MESSAGES.updateFailed);
    },
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const found = validateDatasetEdit({ name, description });
    setErrors(found);
    if (found.name || found.description) return;
    setServerError(null);
    update.mutate({ id: dataset.id, dataset: { name: name.trim(), description: description.trim() } });
  }

  return (
    <Paper withBorder p="lg" radius="md">
      <form noValidate onSubmit={submit}>
        <Stack>
          {serverError && (
            <Alert color="red" variant="light" role="alert">
              {serverError}
            </Alert>
          )}
          <TextInput
            label="Name"
            required
            value={name}
            error={errors.name}
            onChange={(e) => {
              setName(ignoreBlank(e.currentTarget.value));
              setErrors((x) => ({ ...x, name: undefined }));
            }}
          />
          <Textarea
            label="Description"
            description={DATASET_MESSAGES.descriptionOnEdit}
            required
            autosize
            minRows={3}
            value={description}
            error={errors.description}
            onChange={(e) => {
              setDescription(ignoreBlank(e.currentTarget.value));
              setErrors((x) => ({ ...x, description: undefined }));
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" component={Link} to={paths.dataset.getHref(dataset.id)}>
              Cancel
            </Button>
            <Button type="submit" loading={update.isPending}>
              Update Dataset
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}

/** /datasets/edit/{id} (spec 001 §2): the breadcrumb back to /datasets/{id}; name and description; 'Update Dataset'. */
export function DatasetEditForm({ id }: { id: string }) {
  const dataset = useDataset(id);
  const d = dataset.data?.dataset;
  return (
    <Stack maw={720}>
      <PageHeader
        title="Edit dataset"
        crumbs={[
          { label: 'Datasets', href: paths.datasets.getHref() },
          { label: d?.name ?? 'Dataset', href: paths.dataset.getHref(id) },
          { label: 'Edit' },
        ]}
      />
      {dataset.isPending && (
        <Stack gap="sm" role="status" aria-label="Loading dataset">
          <Skeleton h={36} />
          <Skeleton h={80} />
        </Stack>
      )}
      {dataset.isError && <QueryError error={dataset.error} onRetry={() => dataset.refetch()} back={{ label: 'Back to Datasets', href: paths.datasets.getHref() }} />}
      {d && !canEdit(d) && (
        <Alert color="yellow" variant="light" role="alert">
          {EDIT_ACCESS_NEEDED}
        </Alert>
      )}
      {d && canEdit(d) && <EditForm key={d.id} dataset={d} />}
    </Stack>
  );
}
