import { Alert, Group, Paper, SimpleGrid, Skeleton, Stack, Table, Text, Title } from '@mantine/core';

import type { MetricPeriod } from '@/config/constants';
import { useComputeUsage } from '@/features/organizations/api/get-compute-usage';
import type { ComputeLine } from '@/lib/api/types';

/** Hours with one decimal below 10, whole above ("0.4", "12"). */
export function hours(h: number): string {
  return h < 10 ? h.toFixed(1) : Math.round(h).toLocaleString();
}

const KINDS: Record<string, string> = { project: 'Project', application: 'App or report', workflow: 'Workflow' };

function Lines({ label, lines, withKind }: { label: string; lines: ComputeLine[]; withKind: boolean }) {
  return (
    <Table aria-label={label} verticalSpacing={6}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{withKind ? 'Item' : 'User'}</Table.Th>
          {withKind && <Table.Th>Kind</Table.Th>}
          <Table.Th ta="right">CPU-hours</Table.Th>
          <Table.Th ta="right">Memory GiB-hours</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {lines.map((l) => (
          <Table.Tr key={l.id ?? '(none)'}>
            <Table.Td>
              <Text size="sm">{l.name}</Text>
              {l.email && (
                <Text size="xs" c="dimmed">
                  {l.email}
                </Text>
              )}
            </Table.Td>
            {withKind && <Table.Td>{l.kind ? (KINDS[l.kind] ?? l.kind) : '—'}</Table.Td>}
            <Table.Td ta="right">{hours(l.cpu_hours)}</Table.Td>
            <Table.Td ta="right">{hours(l.memory_gib_hours)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/**
 * What the organization's workloads set aside over the period (CPU-hours, memory GiB-hours), in
 * all, per user (the owner of what ran) and per item, as the platform sampled its pods.
 */
export function ComputeUsage({ organizationId, period }: { organizationId: string; period: MetricPeriod }) {
  const usage = useComputeUsage(organizationId, period);
  if (usage.isPending) return <Skeleton h={160} />;
  if (usage.isError) {
    return (
      <Alert color="red" title="The compute usage could not be read">
        {usage.error.message}
      </Alert>
    );
  }
  const { total, users, items } = usage.data;
  return (
    <Paper withBorder p="lg">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={4}>Compute used this {period}</Title>
          <Group gap="lg" aria-label="Compute in all">
            <Text size="sm">
              <b>{hours(total.cpu_hours)}</b> CPU-hours
            </Text>
            <Text size="sm">
              <b>{hours(total.memory_gib_hours)}</b> memory GiB-hours
            </Text>
          </Group>
        </Group>
        {items.length === 0 ? (
          <Text size="sm" c="dimmed">
            Nothing ran in this period: previews, apps, reports and workflow tasks count here once they run.
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, lg: 2 }}>
            <Lines label="Compute per item" lines={items} withKind />
            <Lines label="Compute per user" lines={users} withKind={false} />
          </SimpleGrid>
        )}
        <Text size="xs" c="dimmed">
          What each running pod set aside (its size) × how long it ran, sampled every minute.
        </Text>
      </Stack>
    </Paper>
  );
}
