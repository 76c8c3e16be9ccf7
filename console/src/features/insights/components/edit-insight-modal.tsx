import { Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';

import { EditModal } from '@/components/ui/edit-modal';
import type { InsightChanges, InsightView } from '@/lib/api/types';
import { useUpdateInsight } from '@/features/insights/api/update-insight';
import { ImageSelector } from '@/features/insights/components/image-selector';
import { notify } from '@/lib/notify';
import { fieldErrors } from '@/lib/field-errors';

export const EMPTY_NAME = 'Empty name not allowed';
export const EMPTY_URL = 'Empty URL not allowed';
/** The entity type the messages name ('{type} updated!', 'Update {type} failed'). */
const ENTITY_TYPE = 'Application';
export const UPDATE_FAILED = `Update ${ENTITY_TYPE} failed`;

/** The app URL is editable (and required) only for applications without a container (spec 000 §5). */
export function hasEditableUrl(insight: Pick<InsightView, 'app_type' | 'container_name'>) {
  return insight.app_type === 'application' && !insight.container_name;
}

type Values = { name: string; description: string; img_path: string | null; app_url: string };

function initialValues(insight: InsightView): Values {
  return {
    name: insight.name ?? '',
    description: insight.description ?? '',
    img_path: insight.img_path ?? null,
    app_url: insight.app_url ?? '',
  };
}

/**
 * The edit modal (spec 000 §2, §5): name, description, image and, for applications without a
 * container, the app URL. Closing it with unsaved changes asks 'You have unsaved changes'; so
 * does leaving the page.
 */
export function EditInsightModal({ insight, onClose }: { insight: InsightView; onClose: () => void }) {
  const [initial] = useState(() => initialValues(insight));
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<{ name?: string; app_url?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const withUrl = hasEditableUrl(insight);
  const dirty = (Object.keys(values) as (keyof Values)[]).some((k) => values[k] !== initial[k]);

  const update = useUpdateInsight({
    onSuccess: (r) => {
      notify.success(r.message || `${ENTITY_TYPE} updated!`);
      onClose();
    },
    onError: (e) => {
      setServerError(e.message);
      // A URL the server refuses marks the field as well.
      setErrors((x) => ({ ...x, ...fieldErrors(e, { invalid_url: 'app_url', url_required: 'app_url' }) }));
      notify.error(UPDATE_FAILED);
    },
  });

  function set<K extends keyof Values>(key: K, value: Values[K]) {
    setValues((v) => ({ ...v, [key]: value }));
    if (key === 'name' || key === 'app_url') setErrors((e) => ({ ...e, [key]: undefined }));
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const next = {
      name: values.name.trim() ? undefined : EMPTY_NAME,
      app_url: withUrl && !values.app_url.trim() ? EMPTY_URL : undefined,
    };
    setErrors(next);
    if (next.name || next.app_url) return;
    setServerError(null);
    const entity: InsightChanges = {
      name: values.name.trim(),
      description: values.description.trim(),
      img_path: values.img_path,
      ...(withUrl ? { app_url: values.app_url.trim() } : {}),
    };
    update.mutate({ id: insight.id, entity });
  }

  return (
    <EditModal
      title={`Edit ${insight.name}`}
      dirty={dirty}
      saving={update.isPending}
      saved={update.isSuccess}
      waiting={uploading}
      error={serverError}
      errorTitle={UPDATE_FAILED}
      onSubmit={submit}
      onClose={onClose}
    >
      <TextInput label="Name" required value={values.name} error={errors.name} onChange={(e) => set('name', e.currentTarget.value)} data-autofocus />
      <Textarea label="Description" autosize minRows={2} maxRows={5} value={values.description} onChange={(e) => set('description', e.currentTarget.value)} />
      {withUrl && (
        <TextInput
          label="App URL"
          required
          placeholder="https://"
          value={values.app_url}
          error={errors.app_url}
          onChange={(e) => set('app_url', e.currentTarget.value)}
        />
      )}
      <ImageSelector value={values.img_path} previewUrl={insight.img_url} onChange={(p) => set('img_path', p)} onUploadingChange={setUploading} />
    </EditModal>
  );
}
