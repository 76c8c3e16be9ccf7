import { Select } from '@mantine/core';

import type { CollectionView } from '@/features/web3/api/types';

function optionLabel(c: CollectionView) {
  return `${c.name || c.contract_address} (${c.gcp_slug}, ${c.chain})`;
}

/** Picks a collection by its slug; a slug the list does not hold is still offered as itself. */
export function CollectionPicker({
  collections,
  value,
  onChange,
}: {
  collections: readonly CollectionView[];
  value: string | null;
  onChange: (slug: string) => void;
}) {
  const data = collections.map((c) => ({ value: c.gcp_slug, label: optionLabel(c) }));
  if (value && !data.some((o) => o.value === value)) data.unshift({ value, label: value });
  return (
    <Select
      label="Collection"
      placeholder="Choose a collection"
      data={data}
      value={value}
      onChange={(v) => v && onChange(v)}
      searchable
      allowDeselect={false}
      nothingFoundMessage="No collection of that name"
      maw={520}
    />
  );
}
