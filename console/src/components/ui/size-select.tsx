import { Select, type SelectProps } from '@mantine/core';

import { useSizes } from '@/lib/sizes';
import type { HardwareSize } from '@/lib/api/types';

/** What a workload is, for the size it takes when it names none. */
export type SizeFor = 'project' | 'task' | 'insight';

/** "medium · 0.5–2 CPU · 1Gi memory · 4Gi disk": what a size gives, in one line. */
export function describeSize(s: HardwareSize): string {
  return `${s.id} · ${cpus(s.cpu)}–${cpus(s.cpu_limit)} CPU · ${s.memory} memory · ${s.ephemeral_storage_limit} disk`;
}

/** A CPU quantity in CPUs ("500m" → "0.5", "2" → "2"). */
function cpus(q: string): string {
  return q.endsWith('m') ? String(Number(q.slice(0, -1)) / 1000) : q;
}

type Props = Omit<SelectProps, 'data' | 'value' | 'onChange'> & {
  /** The chosen size id; null: the list's default. */
  value: string | null | undefined;
  onChange: (sizeId: string | null) => void;
  for: SizeFor;
};

/**
 * The hardware size a project, app or report runs with (GET /v2/cluster/sizes/list): the
 * administrator's sizes, first the default ("Default (small · …)", saved as no size). A size the
 * list does not have (any more) still shows what the workload names.
 */
export function SizeSelect({ value, onChange, for: kind, ...props }: Props) {
  const sizes = useSizes();
  const list = sizes.data?.sizes ?? [];
  const defaultId = kind === 'insight' ? sizes.data?.default_insight : sizes.data?.default;
  const fallback = list.find((s) => s.id === defaultId);
  const data = [
    { value: '', label: fallback ? `Default (${describeSize(fallback)})` : 'Default' },
    ...list.map((s) => ({ value: s.id, label: describeSize(s) })),
  ];
  if (value && !list.some((s) => s.id === value)) data.push({ value, label: `${value} (not in the list)` });
  return (
    <Select
      // Named by its label when it has one.
      aria-label={props.label ? undefined : 'Hardware size'}
      data={data}
      value={value ?? ''}
      allowDeselect={false}
      placeholder={sizes.isPending ? 'Loading sizes…' : undefined}
      error={sizes.isError ? sizes.error.message : undefined}
      {...props}
      onChange={(v) => onChange(v ? v : null)}
    />
  );
}
