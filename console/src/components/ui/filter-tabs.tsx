import { Tabs } from '@mantine/core';

/** A listing page's All / Created by me / Shared with me … tabs (spec 001 §2 "Listing pages"). */
export function FilterTabs<F extends string>({
  label,
  filters,
  value,
  onChange,
}: {
  label: string;
  filters: readonly { value: F; label: string }[];
  value: F;
  onChange: (value: string | null) => void;
}) {
  return (
    <Tabs value={value} onChange={onChange}>
      <Tabs.List aria-label={label}>
        {filters.map((f) => (
          <Tabs.Tab key={f.value} value={f.value}>
            {f.label}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}
