import { Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';

import { EditModal } from '@/components/ui/edit-modal';
import { useUpdateProject } from '@/features/projects/api/update-project';
import type { ImageField } from '@/features/projects/components/slots';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';
import { projectNameError } from '@/features/projects/utils/names';
import type { ProjectView } from '@/lib/api/types';
import { notify } from '@/lib/notify';

type Values = { name: string; description: string; img_path: string | null };

/**
 * The edit modal for a project v2 (spec 000 §2, §5): name (spec 001 §5's rule), description and
 * card image. Closing or leaving with unsaved changes asks first.
 */
export function EditProjectModal({ project, onClose, imageField }: { project: ProjectView; onClose: () => void; imageField?: ImageField }) {
  const [initial] = useState<Values>(() => ({ name: project.name, description: project.description ?? '', img_path: project.img_path }));
  const [values, setValues] = useState(initial);
  const [nameError, setNameError] = useState<string | null>(null);
  const [serverError, setServerError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const dirty = values.name !== initial.name || values.description !== initial.description || values.img_path !== initial.img_path;

  const update = useUpdateProject({
    silent: true,
    onSuccess: (r) => {
      notify.success(r.message || PROJECT_MESSAGES.updated);
      onClose();
    },
    onError: (e) => {
      setServerError(e.message);
      notify.error(PROJECT_MESSAGES.updateFailed);
    },
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const error = projectNameError(values.name);
    setNameError(error);
    if (error) return;
    setServerError(null);
    update.mutate({ id: project.id, entity: { name: values.name.trim(), description: values.description.trim(), img_path: values.img_path } });
  }

  return (
    <EditModal
      title={`Edit ${project.name}`}
      dirty={dirty}
      saving={update.isPending}
      saved={update.isSuccess}
      waiting={uploading}
      error={serverError}
      errorTitle={PROJECT_MESSAGES.updateFailed}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput
        label="Name"
        required
        data-autofocus
        value={values.name}
        error={nameError}
        onChange={(e) => {
          const name = e.currentTarget.value;
          setValues((v) => ({ ...v, name }));
          setNameError(null);
        }}
      />
      <Textarea
        label="Description"
        autosize
        minRows={2}
        maxRows={5}
        value={values.description}
        onChange={(e) => {
          const description = e.currentTarget.value;
          setValues((v) => ({ ...v, description }));
        }}
      />
      {imageField?.({
        value: values.img_path,
        previewUrl: project.img_url,
        onChange: (img_path) => setValues((v) => ({ ...v, img_path })),
        onUploadingChange: setUploading,
      })}
    </EditModal>
  );
}
