import { Alert, Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';

import { UnsavedChangesDialog, UnsavedChangesGuard } from '@/components/ui/unsaved-changes';
import type { ProjectView } from '@/features/projects/api/types';
import { useUpdateProject } from '@/features/projects/api/update-project';
import type { ImageField } from '@/features/projects/components/slots';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';
import { projectNameError } from '@/features/projects/utils/names';
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
  const [confirmClose, setConfirmClose] = useState(false);
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

  function requestClose() {
    if (dirty && !update.isPending) setConfirmClose(true);
    else onClose();
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const error = projectNameError(values.name);
    setNameError(error);
    if (error) return;
    setServerError(null);
    update.mutate({ id: project.id, entity: { name: values.name.trim(), description: values.description.trim(), img_path: values.img_path } });
  }

  return (
    <>
      <Modal opened onClose={requestClose} title={`Edit ${project.name}`} size="lg" centered>
        <form noValidate onSubmit={submit}>
          <Stack>
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
            {serverError && (
              <Alert color="red" variant="light" title={PROJECT_MESSAGES.updateFailed}>
                {serverError}
              </Alert>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={requestClose}>
                Cancel
              </Button>
              <Button type="submit" loading={update.isPending} disabled={uploading}>
                Save
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      <UnsavedChangesDialog
        opened={confirmClose}
        onStay={() => setConfirmClose(false)}
        onLeave={() => {
          setConfirmClose(false);
          onClose();
        }}
      />
      <UnsavedChangesGuard dirty={dirty && !update.isSuccess} />
    </>
  );
}
