import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

import { FeatureGate } from '@/app/routes/feature-gate';
import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { useDatasets } from '@/features/datasets/api/get-datasets';
import type { DatasetPickerProps } from '@/features/templates/components/slots';
import { TemplateWizard } from '@/features/templates/components/template-wizard';

/** A dataset the caller can see (the datasets feature's list, searched as typed). */
function TemplateDatasetField({ value, onChange, error }: DatasetPickerProps) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const datasets = useDatasets({ filter: 'all', page: 1, search: debounced });
  const [chosen, setChosen] = useState<{ value: string; label: string } | null>(null);
  const found = (datasets.data?.datasets ?? []).map((d) => ({ value: d.id, label: d.name }));
  const options = chosen && !found.some((o) => o.value === chosen.value) ? [chosen, ...found] : found;
  return (
    <Select
      label="Dataset"
      placeholder={datasets.isPending ? 'Loading datasets…' : 'Choose a dataset'}
      data={options}
      value={value}
      onChange={(id) => {
        const option = options.find((o) => o.value === id) ?? null;
        setChosen(option);
        onChange(id, option?.label ?? '');
      }}
      searchable
      onSearchChange={setSearch}
      nothingFoundMessage="No dataset of that name"
      error={error}
      required
    />
  );
}

/** /add-template: the wizard, with the datasets feature's picker. */
export function AddTemplateRoute() {
  return (
    <FeatureGate feature="insights" title="Insights">
      <TemplateWizard datasetPicker={(props) => <TemplateDatasetField {...props} />} />
    </FeatureGate>
  );
}
