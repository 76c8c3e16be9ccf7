import { Switch, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';

import { EditModal } from '@/components/ui/edit-modal';
import type { InsightChanges, InsightView } from '@/lib/api/types';
import { useUpdateInsight } from '@/features/insights/api/update-insight';
import { ImageSelector } from '@/features/insights/components/image-selector';
import { SizeSelect } from '@/components/ui/size-select';
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

/** Whether a pod runs it (an app or report published from a project), so it has a hardware size. */
export function hasSize(insight: Pick<InsightView, 'app_type' | 'status' | 'is_template'>) {
  return insight.app_type !== 'user_report' && insight.status !== 'external' && !insight.is_template;
}

type Values = { name: string; description: string; img_path: string | null; app_url: string; size_id: string | null; always_on: boolean };

function initialValues(insight: InsightView): Values {
  return {
    name: insight.name ?? '',
    description: insight.description ?? '',
    img_path: insight.img_path ?? null,
    app_url: insight.app_url ?? '',
    size_id: insight.size_id ?? null,
    always_on: insight.always_on,
  };
}

/**
 * The edit modal (spec 000 §2, §5): name, description, image and, for applications without a
 * container, the app URL; for apps and reports a pod runs, the hardware size. Closing it with unsaved changes asks 'You have unsaved changes'; so
 * does leaving the page.
 */
export function EditInsightModal({ insight, onClose }: { insight: InsightView; onClose: () => void }) {
  const [initial] = useState(() => initialValues(insight));
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<{ name?: string; app_url?: string }>({});
  const [serverError, setServerError] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const withUrl = hasEditableUrl(insight);
  const sized = hasSize(insight);
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
      ...(sized && values.size_id !== initial.size_id ? { size_id: values.size_id ?? '' } : {}),
      ...(values.always_on !== initial.always_on ? { always_on: values.always_on } : {}),
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
      {sized && (
        <SizeSelect
          for="insight"
          label="Size"
          description={insight.app_type === 'application' ? 'The CPU, memory and disk its pod gets; a running app restarts with it.' : 'The CPU, memory and disk its renders get.'}
          value={values.size_id}
          onChange={(v) => set('size_id', v)}
        />
      )}
      {sized && insight.app_type === 'application' && (
        <Switch
          label="Always on"
          description="Never sleeps when nobody uses it (where your organization allows it)"
          checked={values.always_on}
          onChange={(e) => set('always_on', e.currentTarget.checked)}
        />
      )}
      <ImageSelector value={values.img_path} previewUrl={insight.img_url} onChange={(p) => set('img_path', p)} onUploadingChange={setUploading} />
    </EditModal>
  );
}
