import { FileInput, SegmentedControl, Select, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { ModalActions } from '@/components/ui/modal-actions';
import { MAX_NOTEBOOK_BYTES } from '@/config/constants';
import { paths } from '@/config/paths';
import type { LegacyProjectView, NotebookImportRequest } from '@/lib/api/types';
import { type ImportableNotebook, useImportableNotebooks } from '@/features/notebooks/api/get-importable-notebooks';
import { useImportNotebook } from '@/features/notebooks/api/import-notebook';
import type { ImportedState } from '@/features/notebooks/components/legacy-project-detail';
import { type NotebookFieldErrors, NotebookFields } from '@/features/notebooks/components/notebook-fields';
import { ProjectFormFrame } from '@/features/notebooks/components/project-form-frame';
import { NOTEBOOK_MESSAGES } from '@/features/notebooks/utils/messages';
import { nameFromFile, notebookNameError } from '@/features/notebooks/utils/names';
import { notify } from '@/lib/notify';

type Source = 'notebook' | 'file';

/** Why a picked file cannot be imported, or null: an `.ipynb` of at most 10 MiB (the contract). */
export function notebookFileError(file: File | null): string | null {
  if (!file) return NOTEBOOK_MESSAGES.chooseFile;
  if (!/\.ipynb$/i.test(file.name)) return NOTEBOOK_MESSAGES.notIpynb;
  if (file.size > MAX_NOTEBOOK_BYTES) return NOTEBOOK_MESSAGES.fileTooLarge;
  return null;
}

/** The notebooks to choose from, grouped by their project (the target project's own first). */
export function notebookOptions(notebooks: ImportableNotebook[], projectId: string) {
  const groups = new Map<string, { group: string; items: { value: string; label: string }[] }>();
  const ordered = [...notebooks.filter((n) => n.project_id === projectId), ...notebooks.filter((n) => n.project_id !== projectId)];
  for (const n of ordered) {
    const group = groups.get(n.project_id) ?? { group: n.projectName, items: [] };
    group.items.push({ value: n.id, label: n.name });
    groups.set(n.project_id, group);
  }
  return [...groups.values()];
}

type Errors = NotebookFieldErrors & { source?: string | null };

function ImportForm({ project }: { project: LegacyProjectView }) {
  const navigate = useNavigate();
  const [source, setSource] = useState<Source>('notebook');
  const [notebookId, setNotebookId] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [values, setValues] = useState({ name: '', description: '' });
  const [errors, setErrors] = useState<Errors>({});
  const [reading, setReading] = useState(false);
  const importable = useImportableNotebooks({ enabled: source === 'notebook' });
  const back = paths.legacyProject.getHref(project.id);
  const run = useImportNotebook({
    onSuccess: (r) => {
      notify.success(r.message || NOTEBOOK_MESSAGES.notebookCreated);
      navigate(back, { state: { notebookId: r.notebook.id } satisfies ImportedState });
    },
  });

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    const sourceError = source === 'notebook' ? (notebookId ? null : NOTEBOOK_MESSAGES.chooseNotebook) : notebookFileError(file);
    const found: Errors = { source: sourceError, name: values.name.trim() ? notebookNameError(values.name) : null };
    setErrors(found);
    if (found.source || found.name) return;
    const notebook = {
      project_id: project.id,
      ...(values.name.trim() ? { name: values.name.trim() } : {}),
      ...(values.description.trim() ? { description: values.description.trim() } : {}),
    };
    let request: NotebookImportRequest;
    if (source === 'notebook' && notebookId) {
      request = { notebook, importNotebook: notebookId };
    } else if (file) {
      setReading(true);
      try {
        const content = await file.text();
        request = { notebook: { ...notebook, name: notebook.name ?? nameFromFile(file.name) }, file: { name: file.name, content } };
      } finally {
        setReading(false);
      }
    } else {
      return;
    }
    run.mutate(request);
  }

  const options = notebookOptions(importable.data ?? [], project.id);

  return (
    <form noValidate onSubmit={(e) => void submit(e)}>
      <Stack>
        <SegmentedControl
          aria-label="Import from"
          value={source}
          onChange={(v) => {
            setSource(v as Source);
            setErrors({});
          }}
          data={[
            { value: 'notebook', label: 'An existing notebook' },
            { value: 'file', label: 'An .ipynb file' },
          ]}
        />
        {source === 'notebook' ? (
          <Select
            label="Notebook"
            description="A notebook of a project you can see."
            placeholder={importable.isPending ? 'Loading notebooks…' : options.length ? 'Choose a notebook' : 'No notebook to import'}
            data={options}
            value={notebookId}
            onChange={(v) => {
              setNotebookId(v);
              setErrors((x) => ({ ...x, source: null }));
            }}
            searchable
            nothingFoundMessage="No notebook of that name"
            error={errors.source ?? (importable.isError ? importable.error.message : undefined)}
            required
          />
        ) : (
          <FileInput
            label="Notebook file"
            description="A Jupyter notebook (.ipynb) of at most 10 MiB."
            placeholder="Choose a file"
            accept=".ipynb,application/x-ipynb+json"
            leftSection={<IconUpload size={16} />}
            value={file}
            onChange={(f) => {
              setFile(f);
              setErrors((x) => ({ ...x, source: null }));
            }}
            error={errors.source}
            clearable
            required
          />
        )}
        <Text size="sm" c="dimmed">
          The name and description are optional: the notebook's own are used otherwise.
        </Text>
        <NotebookFields
          values={values}
          errors={errors}
          required={false}
          onChange={(v, field) => {
            setValues(v);
            setErrors((x) => ({ ...x, [field]: null }));
          }}
        />
        <ModalActions error={run.error?.message} submitLabel="Import notebook" loading={run.isPending || reading} onCancel={() => navigate(back)} />
      </Stack>
    </form>
  );
}

/**
 * /import-notebooks?project={id} (spec 001 §2): a copy of an active notebook the user can see, or
 * of an .ipynb file from disk; then the project page opens with the imported notebook's id in
 * navigation state (it is highlighted there).
 */
export function NotebookImportForm({ projectId }: { projectId: string }) {
  return (
    <ProjectFormFrame projectId={projectId} title="Import notebook">
      {(project) => <ImportForm key={project.id} project={project} />}
    </ProjectFormFrame>
  );
}
