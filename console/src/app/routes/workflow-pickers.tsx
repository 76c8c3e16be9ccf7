import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueries } from '@tanstack/react-query';
import { useState } from 'react';

import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { useDatasets } from '@/features/datasets/api/get-datasets';
import { useDockerImages } from '@/features/projects/api/get-docker-images';
import { useProjects } from '@/features/projects/api/get-projects';
import { getRepoFolderQueryOptions, useRepoFolder } from '@/features/projects/api/repo-contents';
import type {
  DatasetPickerProps,
  DesignerPickers,
  ImagePickerProps,
  ProjectFilePickerProps,
  ProjectPickerProps,
} from '@/features/workflows/components/slots';

/**
 * The pickers the workflow screens borrow (features/workflows/components/slots.ts), made of the
 * projects and datasets features' queries. The app layer is the only place features meet.
 */

/** A project the caller can see; the list's search narrows it. */
export function ProjectPickerField({ value, onChange, error, label }: ProjectPickerProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const projects = useProjects({ filter: 'all', page: 1, search: debounced });
  const items = projects.data?.projects ?? [];
  return (
    <Select
      label={label}
      placeholder={projects.isPending ? 'Loading projects…' : 'Choose a project'}
      data={items.map((p) => ({ value: p.id, label: p.name }))}
      value={value}
      onChange={onChange}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      nothingFoundMessage="No project of that name"
      error={error}
      required
    />
  );
}

/** The project's files at the root and one folder down, as the API lists them (repocontents). */
export function ProjectFileField({ projectId, label, description, value, onChange, accept, error, required, disabled }: ProjectFilePickerProps) {
  const root = useRepoFolder(projectId, '');
  const folders = (root.data ?? []).filter((i) => i.type === 'dir');
  const nested = useQueries({ queries: folders.map((f) => getRepoFolderQueryOptions(projectId, f.path)) });
  const files = [root.data ?? [], ...nested.map((q) => q.data ?? [])]
    .flat()
    .filter((i) => i.type === 'file' && accept(i.path))
    .map((i) => i.path)
    .sort();
  const options = value && !files.includes(value) ? [value, ...files] : files;
  return (
    <Select
      label={label}
      description={description}
      placeholder={root.isPending ? 'Loading files…' : files.length ? 'Choose a file' : 'No matching file in the project'}
      data={options}
      value={value}
      onChange={onChange}
      searchable
      clearable={!required}
      error={error}
      required={required}
      disabled={disabled}
    />
  );
}

/** An image of the administrator's list: its id is what a task names (the operator resolves it). */
export function ImageField({ value, onChange, error, disabled }: ImagePickerProps) {
  const images = useDockerImages();
  const options = (images.data?.dockerImages ?? []).map((i) => ({ value: i.id, label: i.name === i.id ? i.id : `${i.name} (${i.id})` }));
  return (
    <Select
      label="Image"
      placeholder={images.isPending ? 'Loading images…' : 'Choose an image'}
      data={value && !options.some((o) => o.value === value) ? [{ value, label: value }, ...options] : options}
      value={value}
      onChange={onChange}
      searchable
      error={error}
      required
      disabled={disabled}
    />
  );
}

/** A dataset the caller can edit (an upload writes into it). */
export function DatasetField({ value, onChange, error, disabled }: DatasetPickerProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const datasets = useDatasets({ filter: 'all', page: 1, search: debounced });
  const editable = (datasets.data?.datasets ?? []).filter((d) => d.access_level === 'edit').map((d) => ({ value: d.id, label: d.name }));
  const options = value && !editable.some((d) => d.value === value.id) ? [{ value: value.id, label: value.name }, ...editable] : editable;
  return (
    <Select
      label="Dataset"
      description="A dataset you can edit"
      placeholder={datasets.isPending ? 'Loading datasets…' : 'Choose a dataset'}
      data={options}
      value={value?.id ?? null}
      onChange={(id) => onChange(id ? { id, name: options.find((o) => o.value === id)?.label ?? '' } : null)}
      searchable
      onSearchChange={setSearch}
      error={error}
      required
      disabled={disabled}
    />
  );
}

export const designerPickers: DesignerPickers = {
  file: (props) => <ProjectFileField {...props} />,
  image: (props) => <ImageField {...props} />,
  dataset: (props) => <DatasetField {...props} />,
};
