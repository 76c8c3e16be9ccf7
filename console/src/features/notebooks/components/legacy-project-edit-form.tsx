import { Alert, Paper, Skeleton, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { ModalActions } from '@/components/ui/modal-actions';
import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import type { LegacyProjectChanges, LegacyProjectView } from '@/lib/api/types';
import { useLegacyProject } from '@/features/notebooks/api/get-legacy-project';
import { useUpdateLegacyProject } from '@/features/notebooks/api/update-legacy-project';
import type { DatasetsPicker } from '@/features/notebooks/components/slots';
import { canEdit } from '@/features/notebooks/utils/access';
import { NOTEBOOK_MESSAGES } from '@/features/notebooks/utils/messages';
import { sizeError } from '@/features/notebooks/utils/names';
import { notify } from '@/lib/notify';

type Values = { description: string; type: string; size: string; author: string; datasetIds: string[] };
type Errors = { description?: string | null; size?: string | null; datasets?: string | null };

/** The edit form's checks: a description, a size of 1–100 GiB, at least one dataset. */
export function validateLegacyEdit(v: Values): Errors {
  return {
    description: v.description.trim() ? null : NOTEBOOK_MESSAGES.descriptionRequired,
    size: sizeError(v.size),
    datasets: v.datasetIds.length > 0 ? null : NOTEBOOK_MESSAGES.datasetRequired,
  };
}

function EditForm({ project, datasetsPicker }: { project: LegacyProjectView; datasetsPicker: DatasetsPicker }) {
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(() => ({
    description: project.description ?? '',
    type: project.type ?? '',
    size: project.size ?? '',
    author: project.author ?? '',
    datasetIds: project.dataset_ids ?? [],
  }));
  const [errors, setErrors] = useState<Errors>({});
  const update = useUpdateLegacyProject({
    onSuccess: (r) => {
      notify.success(r.message || NOTEBOOK_MESSAGES.projectUpdated);
      navigate(paths.notebooks.getHref());
    },
  });
  const set = <K extends keyof Values>(key: K, value: Values[K]) => setValues((v) => ({ ...v, [key]: value }));

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const found = validateLegacyEdit(values);
    setErrors(found);
    if (found.description || found.size || found.datasets) return;
    const changes: LegacyProjectChanges = {
      description: values.description.trim(),
      type: values.type.trim(),
      size: values.size.trim(),
      author: values.author.trim(),
      dataset_ids: values.datasetIds,
    };
    update.mutate({ id: project.id, project: changes });
  }

  return (
    <Paper withBorder p="lg" radius="md">
      <form noValidate onSubmit={submit}>
        <Stack>
          <TextInput label="Name" value={project.name} readOnly disabled description="A project's name cannot be changed." />
          <Textarea
            label="Description"
            required
            autosize
            minRows={2}
            maxRows={5}
            value={values.description}
            error={errors.description}
            onChange={(e) => {
              set('description', e.currentTarget.value);
              setErrors((x) => ({ ...x, description: null }));
            }}
          />
          <TextInput label="Type" value={values.type} onChange={(e) => set('type', e.currentTarget.value)} />
          <TextInput
            label="Size"
            description="Workspace size in GiB (1 to 100)"
            inputMode="numeric"
            value={values.size}
            error={errors.size}
            onChange={(e) => {
              set('size', e.currentTarget.value);
              setErrors((x) => ({ ...x, size: null }));
            }}
          />
          <TextInput label="Author" value={values.author} onChange={(e) => set('author', e.currentTarget.value)} />
          {datasetsPicker({
            value: values.datasetIds,
            onChange: (ids) => {
              set('datasetIds', ids);
              setErrors((x) => ({ ...x, datasets: null }));
            },
            error: errors.datasets,
          })}
          <ModalActions error={update.error?.message} submitLabel="Save" loading={update.isPending} onCancel={() => navigate(paths.notebooks.getHref())} />
        </Stack>
      </form>
    </Paper>
  );
}

/**
 * /projects/{id}/edit (spec 001 §2): description, type, size, author and datasets (the name is
 * not editable), then back to /projects.
 */
export function LegacyProjectEditForm({ id, datasetsPicker }: { id: string; datasetsPicker: DatasetsPicker }) {
  const detail = useLegacyProject(id);
  const project = detail.data?.project;
  return (
    <Stack maw={720}>
      <PageHeader
        title="Edit project"
        crumbs={[
          { label: 'Notebooks', href: paths.notebooks.getHref() },
          { label: project?.name ?? 'Project', href: paths.legacyProject.getHref(id) },
          { label: 'Edit' },
        ]}
      />
      {detail.isPending && (
        <Stack gap="sm" role="status" aria-label="Loading project">
          <Skeleton h={36} />
          <Skeleton h={80} />
        </Stack>
      )}
      {detail.isError && <QueryError error={detail.error} onRetry={() => detail.refetch()} back={{ label: 'Back to Notebooks', href: paths.notebooks.getHref() }} />}
      {project && !canEdit(project) && (
        <Alert color="yellow" variant="light" role="alert">
          {NOTEBOOK_MESSAGES.needEdit}
        </Alert>
      )}
      {project && canEdit(project) && <EditForm key={project.id} project={project} datasetsPicker={datasetsPicker} />}
    </Stack>
  );
}
