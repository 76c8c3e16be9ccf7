import { Paper, Select, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { ModalActions } from '@/components/ui/modal-actions';
import { PageHeader } from '@/components/ui/page-header';
import { LEGACY_PROJECT_DEFAULTS, PROJECT_LANGUAGES } from '@/config/constants';
import { paths } from '@/config/paths';
import type { Language, NewLegacyProjectFields } from '@/lib/api/types';
import { useCreateLegacyProject } from '@/features/notebooks/api/create-legacy-project';
import type { DatasetsPicker } from '@/features/notebooks/components/slots';
import { NOTEBOOK_MESSAGES } from '@/features/notebooks/utils/messages';
import { descriptionError, legacyProjectNameError } from '@/features/notebooks/utils/names';
import { displayName, useSession } from '@/lib/auth';
import { notify } from '@/lib/notify';

type Errors = { name?: string | null; description?: string | null; datasets?: string | null };

/** The create form's checks (spec 001 §5): the name's rule, a description, at least one dataset. */
export function validateLegacyProject(v: { name: string; description: string; datasetIds: string[] }): Errors {
  return {
    name: legacyProjectNameError(v.name),
    description: descriptionError(v.description),
    datasets: v.datasetIds.length > 0 ? null : NOTEBOOK_MESSAGES.datasetRequired,
  };
}

/** The request with the form's defaults (spec 001 §2): author the user's name, size '5', type 'report'. */
export function newLegacyProject(v: { name: string; description: string; language: Language; datasetIds: string[] }, author: string): NewLegacyProjectFields {
  return {
    name: v.name.trim(),
    description: v.description.trim(),
    language: v.language,
    dataset_ids: v.datasetIds,
    author,
    size: LEGACY_PROJECT_DEFAULTS.size,
    type: LEGACY_PROJECT_DEFAULTS.type,
  };
}

/**
 * /projects/new (spec 001 §2, §5): name, description, language (Python or R) and datasets
 * (required), with the way back to /projects (the breadcrumb and Cancel); author, size and type take the spec's defaults.
 * Opens the new project.
 */
export function LegacyProjectForm({ datasetsPicker }: { datasetsPicker: DatasetsPicker }) {
  const navigate = useNavigate();
  const { user } = useSession();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [language, setLanguage] = useState<Language>(LEGACY_PROJECT_DEFAULTS.language);
  const [datasetIds, setDatasetIds] = useState<string[]>([]);
  const [errors, setErrors] = useState<Errors>({});
  const create = useCreateLegacyProject({
    onSuccess: (r) => {
      notify.success(r.message || NOTEBOOK_MESSAGES.projectCreated);
      navigate(paths.legacyProject.getHref(r.project.id));
    },
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const values = { name, description, language, datasetIds };
    const found = validateLegacyProject(values);
    setErrors(found);
    if (found.name || found.description || found.datasets) return;
    create.mutate(newLegacyProject(values, displayName(user)));
  }

  return (
    <Stack maw={720}>
      <PageHeader title="Create project" crumbs={[{ label: 'Notebooks', href: paths.notebooks.getHref() }, { label: 'Create project' }]} />
      <Paper withBorder p="lg" radius="md">
        <form noValidate onSubmit={submit}>
          <Stack>
            <TextInput
              label="Name"
              description="Letters, digits, hyphens, spaces and slashes. It cannot be changed later."
              required
              data-autofocus
              value={name}
              error={errors.name}
              onChange={(e) => {
                setName(e.currentTarget.value);
                setErrors((x) => ({ ...x, name: null }));
              }}
            />
            <Textarea
              label="Description"
              required
              autosize
              minRows={2}
              maxRows={5}
              value={description}
              error={errors.description}
              onChange={(e) => {
                setDescription(e.currentTarget.value);
                setErrors((x) => ({ ...x, description: null }));
              }}
            />
            <Select
              label="Language"
              required
              data={PROJECT_LANGUAGES.map((l) => ({ value: l.value, label: l.label }))}
              value={language}
              onChange={(v) => v && setLanguage(v as Language)}
              allowDeselect={false}
            />
            {datasetsPicker({
              value: datasetIds,
              onChange: (ids) => {
                setDatasetIds(ids);
                setErrors((x) => ({ ...x, datasets: null }));
              },
              error: errors.datasets,
            })}
            <Text size="xs" c="dimmed">
              Author {displayName(user) || 'you'}, workspace size {LEGACY_PROJECT_DEFAULTS.size} GiB, type {LEGACY_PROJECT_DEFAULTS.type}: you can
              change them later.
            </Text>
            <ModalActions
              error={create.error?.message}
              submitLabel="Create project"
              loading={create.isPending}
              onCancel={() => navigate(paths.notebooks.getHref())}
            />
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
