import { Button, Group, Modal, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';

import { useCreateInsight } from '@/features/insights/api/create-insight';
import { ImageSelector } from '@/features/insights/components/image-selector';
import { notify } from '@/lib/notify';

export const EMPTY_NAME = 'Empty name not allowed';
export const EMPTY_URL = 'Empty URL not allowed';
export const APP_CREATED = 'App Created Successfully';

type Values = { name: string; description: string; app_url: string; img_path: string | null };
type Errors = { name?: string; app_url?: string };

/**
 * A new insight (POST /v1/applications): an application at a URL, with a name, description and
 * image. Apps that run in the cluster and rendered reports are published from a project.
 */
export function CreateInsightModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const empty: Values = { name: '', description: '', app_url: '', img_path: null };
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const [uploading, setUploading] = useState(false);
  const done = () => {
    setValues(empty);
    setErrors({});
    onClose();
  };
  const create = useCreateInsight({
    onSuccess: (r) => {
      notify.success(r.message || APP_CREATED);
      done();
    },
  });

  function set<K extends keyof Values>(k: K, v: Values[K]) {
    setValues((old) => ({ ...old, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const found: Errors = {
      name: values.name.trim() ? undefined : EMPTY_NAME,
      app_url: values.app_url.trim() ? undefined : EMPTY_URL,
    };
    setErrors(found);
    if (found.name || found.app_url) return;
    create.mutate({
      name: values.name.trim(),
      description: values.description.trim(),
      app_type: 'application',
      app_url: values.app_url.trim(),
      ...(values.img_path ? { img_path: values.img_path } : {}),
    });
  }

  return (
    <Modal opened={opened} onClose={done} title="Create insight" centered size="lg">
      <form noValidate onSubmit={submit}>
        <Stack>
          <Text size="sm" c="dimmed">
            An application that runs elsewhere, at its own URL. Apps that run in the cluster and rendered reports are
            published from a project.
          </Text>
          <TextInput label="Name" required value={values.name} error={errors.name} onChange={(e) => set('name', e.currentTarget.value)} data-autofocus />
          <Textarea label="Description" autosize minRows={2} value={values.description} onChange={(e) => set('description', e.currentTarget.value)} />
          <TextInput
            label="App URL"
            required
            placeholder="https://"
            value={values.app_url}
            error={errors.app_url}
            onChange={(e) => set('app_url', e.currentTarget.value)}
          />
          <ImageSelector value={values.img_path} onChange={(p) => set('img_path', p)} onUploadingChange={setUploading} />
          <Group justify="flex-end">
            <Button variant="default" onClick={done}>
              Cancel
            </Button>
            <Button type="submit" loading={create.isPending} disabled={uploading}>
              Create
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
