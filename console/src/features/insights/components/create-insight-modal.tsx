import { Button, Group, Modal, NativeSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';

import { useCreateInsight } from '@/features/insights/api/create-insight';
import type { InsightType } from '@/features/insights/api/types';
import { ImageSelector } from '@/features/insights/components/image-selector';
import { notify } from '@/lib/notify';

export const EMPTY_NAME = 'Empty name not allowed';
export const APP_CREATED = 'App Created Successfully';

type Values = { name: string; description: string; app_type: InsightType; app_url: string; img_path: string | null };

/** A new insight (POST /v1/applications): name, description, type, optional URL and image. */
export function CreateInsightModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const empty: Values = { name: '', description: '', app_type: 'application', app_url: '', img_path: null };
  const [values, setValues] = useState<Values>(empty);
  const [nameError, setNameError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const done = () => {
    setValues(empty);
    setNameError(null);
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
    if (k === 'name') setNameError(null);
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    if (!values.name.trim()) {
      setNameError(EMPTY_NAME);
      return;
    }
    create.mutate({
      name: values.name.trim(),
      description: values.description.trim(),
      app_type: values.app_type,
      ...(values.img_path ? { img_path: values.img_path } : {}),
      ...(values.app_type === 'application' && values.app_url.trim() ? { app_url: values.app_url.trim() } : {}),
    });
  }

  return (
    <Modal opened={opened} onClose={done} title="Create insight" centered size="lg">
      <form noValidate onSubmit={submit}>
        <Stack>
          <TextInput label="Name" required value={values.name} error={nameError} onChange={(e) => set('name', e.currentTarget.value)} data-autofocus />
          <Textarea label="Description" autosize minRows={2} value={values.description} onChange={(e) => set('description', e.currentTarget.value)} />
          <NativeSelect
            label="Type"
            value={values.app_type}
            onChange={(e) => set('app_type', e.currentTarget.value as InsightType)}
            data={[
              { value: 'application', label: 'Application' },
              { value: 'report', label: 'Report' },
            ]}
          />
          {values.app_type === 'application' && (
            <TextInput
              label="App URL"
              description="Leave empty for an app that runs in the cluster"
              placeholder="https://"
              value={values.app_url}
              onChange={(e) => set('app_url', e.currentTarget.value)}
            />
          )}
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
