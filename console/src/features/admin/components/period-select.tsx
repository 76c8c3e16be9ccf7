import { SegmentedControl } from '@mantine/core';

import { METRIC_PERIODS, type MetricPeriod } from '@/config/constants';

const LABELS: Record<MetricPeriod, string> = { day: 'Day', week: 'Week', month: 'Month', year: 'Year' };

/** Metrics time range: day, week, month, year (default week). */
export function PeriodSelect({ value, onChange }: { value: MetricPeriod; onChange: (p: MetricPeriod) => void }) {
  return (
    <SegmentedControl
      aria-label="Time range"
      value={value}
      onChange={(v) => onChange(v as MetricPeriod)}
      data={METRIC_PERIODS.map((p) => ({ value: p, label: LABELS[p] }))}
    />
  );
}
