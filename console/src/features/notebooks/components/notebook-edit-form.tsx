import { Alert, Paper, Skeleton, Stack } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { ModalActions } from '@/components/ui/modal-actions';
import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import type { NotebookView } from '@/lib/api/types';
import { useNotebook } from '@/features/notebooks/api/get-notebook';
import { useUpdateNotebook } from '@/features/notebooks/api/update-notebook';
import { type NotebookFieldErrors, NotebookFields } from '@/features/notebooks/components/notebook-fields';
import { NOTEBOOK_MESSAGES } from '@/features/notebooks/utils/messages';
import { descriptionError, notebookNameError } from '@/features/notebooks/utils/names';
import { notify } from '@/lib/notify';

function EditForm({ notebook }: { notebook: NotebookView }) {
  const navigate = useNavigate();
  const [values, setValues] = useState({ name: notebook.name, description: notebook.description ?? '' });
  const [errors, setErrors] = useState<NotebookFieldErrors>({});
  const back = paths.legacyProject.getHref(notebook.project_id);
  const update = useUpdateNotebook({
    onSuccess: (r) => {
      notify.success(r.message || NOTEBOOK_MESSAGES.notebookUpdated);
      navigate(back);
    },
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const found = { name: notebookNameError(values.name), description: descriptionError(values.description) };
    setErrors(found);
    if (found.name || found.description) return;
    update.mutate({ id: notebook.id, notebook: { name: values.name.trim(), description: values.description.trim() } });
  }

  return (
    <Paper withBorder p="lg" radius="md">
      <form noValidate onSubmit={submit}>
        <Stack>
          <NotebookFields
            values={values}
            errors={errors}
            onChange={(v, field) => {
              setValues(v);
              setErrors((x) => ({ ...x, [field]: null }));
            }}
          />
          <ModalActions error={update.error?.message} submitLabel="Save" loading={update.isPending} onCancel={() => navigate(back)} />
        </Stack>
      </form>
    </Paper>
  );
}

/** /notebooks/{id}/edit (spec 001 §2): name and description (the file keeps its path), then back to the project page. */
export function NotebookEditForm({ id }: { id: string }) {
  const detail = useNotebook(id);
  const data = detail.data;
  return (
    <Stack maw={720}>
      <PageHeader
        title="Edit notebook"
        crumbs={[
          { label: 'Notebooks', href: paths.notebooks.getHref() },
          ...(data ? [{ label: data.project.name, href: paths.legacyProject.getHref(data.project.id) }, { label: data.notebook.name, href: paths.notebook.getHref(id) }] : []),
          { label: 'Edit' },
        ]}
      />
      {detail.isPending && (
        <Stack gap="sm" role="status" aria-label="Loading notebook">
          <Skeleton h={36} />
          <Skeleton h={80} />
        </Stack>
      )}
      {detail.isError && <QueryError error={detail.error} onRetry={() => detail.refetch()} back={{ label: 'Back to Notebooks', href: paths.notebooks.getHref() }} />}
      {data && data.project.access_level !== 'edit' && (
        <Alert color="yellow" variant="light" role="alert">
          {NOTEBOOK_MESSAGES.needEdit}
        </Alert>
      )}
      {data && data.project.access_level === 'edit' && <EditForm key={data.notebook.id} notebook={data.notebook} />}
    </Stack>
  );
}
