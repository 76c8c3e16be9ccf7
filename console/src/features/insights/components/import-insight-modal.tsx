import { Button, FileInput, Group, Modal, NativeSelect, Stack, Textarea, TextInput } from '@mantine/core';
import { IconFileTypePdf } from '@tabler/icons-react';
import { useState } from 'react';

import { MAX_REPORT_BYTES } from '@/config/constants';
import { useImportApp } from '@/features/insights/api/import-app';
import { useImportReport } from '@/features/insights/api/import-report';
import { notify } from '@/lib/notify';
import { fieldErrors } from '@/lib/field-errors';

/** The import form's messages (spec 001 §5, §8). */
export const IMPORT_MESSAGES = {
  name: 'Empty name not allowed',
  description: 'Empty description not allowed',
  type: 'Empty form type not allowed',
  url: 'Empty URL not allowed',
  file: 'Attach a file',
  pdfOnly: 'Only PDF files can be imported',
  tooLarge: 'The PDF is larger than 50 MB',
  appCreated: 'App Created Successfully',
  reportImported: 'Report has successfully imported.',
} as const;

type ImportType = '' | 'Application' | 'Report';
type Values = { name: string; description: string; type: ImportType; url: string; file: File | null };
type Errors = Partial<Record<keyof Values, string>>;

export function validateImport(v: Values): Errors {
  const errors: Errors = {};
  if (!v.name.trim()) errors.name = IMPORT_MESSAGES.name;
  if (!v.description.trim()) errors.description = IMPORT_MESSAGES.description;
  if (!v.type) errors.type = IMPORT_MESSAGES.type;
  if (v.type === 'Application' && !v.url.trim()) errors.url = IMPORT_MESSAGES.url;
  if (v.type === 'Report') {
    if (!v.file) errors.file = IMPORT_MESSAGES.file;
    else if (!/\.pdf$/i.test(v.file.name) && v.file.type !== 'application/pdf') errors.file = IMPORT_MESSAGES.pdfOnly;
    else if (v.file.size > MAX_REPORT_BYTES) errors.file = IMPORT_MESSAGES.tooLarge;
  }
  return errors;
}

/**
 * Import an app (spec 001 §5): name, description, type Application | Report; an Application needs
 * its URL, a Report a PDF (sent multipart to /v1/applications/importreport).
 */
export function ImportInsightModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const empty: Values = { name: '', description: '', type: '', url: '', file: null };
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Errors>({});
  const done = () => {
    setValues(empty);
    setErrors({});
    onClose();
  };
  const app = useImportApp({ onSuccess: () => { notify.success(IMPORT_MESSAGES.appCreated); done(); } });
  const report = useImportReport({ onSuccess: () => { notify.success(IMPORT_MESSAGES.reportImported); done(); } });

  function set<K extends keyof Values>(k: K, v: Values[K]) {
    setValues((old) => ({ ...old, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  }

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const found = validateImport(values);
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    const name = values.name.trim();
    const description = values.description.trim();
    if (values.type === 'Application') {
      app.mutate(
        { name, description, app_type: 'application', app_url: values.url.trim() },
        // A URL the server refuses marks the field as well as the toast.
        { onError: (err) => setErrors((x) => ({ ...x, ...fieldErrors(err, { invalid_url: 'url', url_required: 'url' }) })) },
      );
    } else if (values.file) {
      report.mutate({ name, description, file: values.file });
    }
  }

  return (
    <Modal opened={opened} onClose={done} title="Import" centered size="md">
      <form noValidate onSubmit={submit}>
        <Stack>
          <TextInput label="Name" required value={values.name} error={errors.name} onChange={(e) => set('name', e.currentTarget.value)} data-autofocus />
          <Textarea label="Description" required autosize minRows={2} value={values.description} error={errors.description} onChange={(e) => set('description', e.currentTarget.value)} />
          <NativeSelect
            label="Type"
            required
            value={values.type}
            error={errors.type}
            onChange={(e) => set('type', e.currentTarget.value as ImportType)}
            data={[
              { value: '', label: 'Select a type' },
              { value: 'Application', label: 'Application' },
              { value: 'Report', label: 'Report' },
            ]}
          />
          {values.type === 'Application' && (
            <TextInput label="URL" required placeholder="https://" value={values.url} error={errors.url} onChange={(e) => set('url', e.currentTarget.value)} />
          )}
          {values.type === 'Report' && (
            <FileInput
              label="PDF file"
              required
              accept="application/pdf,.pdf"
              placeholder="Choose a PDF"
              leftSection={<IconFileTypePdf size={16} />}
              value={values.file}
              error={errors.file}
              clearable
              onChange={(f) => set('file', f)}
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={done}>
              Cancel
            </Button>
            <Button type="submit" loading={app.isPending || report.isPending}>
              Import
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
