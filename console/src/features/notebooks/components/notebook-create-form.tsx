import { Stack } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { ModalActions } from '@/components/ui/modal-actions';
import { paths } from '@/config/paths';
import type { LegacyProjectView } from '@/lib/api/types';
import { useCreateNotebook } from '@/features/notebooks/api/create-notebook';
import type { ImportedState } from '@/features/notebooks/components/legacy-project-detail';
import { type NotebookFieldErrors, NotebookFields } from '@/features/notebooks/components/notebook-fields';
import { ProjectFormFrame } from '@/features/notebooks/components/project-form-frame';
import { NOTEBOOK_MESSAGES } from '@/features/notebooks/utils/messages';
import { descriptionError, notebookNameError } from '@/features/notebooks/utils/names';
import { notify } from '@/lib/notify';

function CreateForm({ project }: { project: LegacyProjectView }) {
  const navigate = useNavigate();
  const [values, setValues] = useState({ name: '', description: '' });
  const [errors, setErrors] = useState<NotebookFieldErrors>({});
  const back = paths.legacyProject.getHref(project.id);
  const create = useCreateNotebook({
    onSuccess: (r) => {
      notify.success(r.message || NOTEBOOK_MESSAGES.notebookCreated);
      navigate(back, { state: { notebookId: r.notebook.id } satisfies ImportedState });
    },
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const found = { name: notebookNameError(values.name), description: descriptionError(values.description) };
    setErrors(found);
    if (found.name || found.description) return;
    create.mutate({ name: values.name.trim(), description: values.description.trim(), project_id: project.id });
  }

  return (
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
        <ModalActions error={create.error?.message} submitLabel="Create notebook" loading={create.isPending} onCancel={() => navigate(back)} />
      </Stack>
    </form>
  );
}

/**
 * /add-notebooks?project={id} (spec 001 §2, §5): a name ('Empty notebook name not allowed.') and
 * a description (required); an empty notebook is committed to the project's repository, then the
 * project page opens with it highlighted.
 */
export function NotebookCreateForm({ projectId }: { projectId: string }) {
  return (
    <ProjectFormFrame projectId={projectId} title="Create notebook">
      {(project) => <CreateForm key={project.id} project={project} />}
    </ProjectFormFrame>
  );
}
