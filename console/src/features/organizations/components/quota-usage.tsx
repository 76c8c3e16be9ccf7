import { Alert, Paper, Progress, Skeleton, Stack, Table, Text, Title } from '@mantine/core';

import { useQuota } from '@/features/organizations/api/get-quota';
import type { QuotaLine } from '@/lib/api/types';

const LABELS: Record<QuotaLine['resource'], string> = {
  cpu: 'CPU',
  memory: 'Memory',
  ephemeral_storage: 'Local disk',
  pods: 'Running pods',
  persistent_volume_claims: 'Volumes',
  storage: 'Volume storage',
};

const BINARY: Record<string, number> = { '': 1, Ki: 2 ** 10, Mi: 2 ** 20, Gi: 2 ** 30, Ti: 2 ** 40, k: 1e3, M: 1e6, G: 1e9, T: 1e12, m: 1e-3 };

/** A Kubernetes quantity as a number ("1900m" → 1.9, "2Gi" → 2147483648); NaN when unknown. */
export function quantity(q: string): number {
  const m = /^([0-9.]+)([a-zA-Z]*)$/.exec(q);
  const factor = m ? BINARY[m[2]] : undefined;
  return m && factor !== undefined ? Number(m[1]) * factor : NaN;
}

/** How a quantity of `resource` reads: CPUs in CPUs, the rest as Kubernetes writes them. */
function shown(resource: QuotaLine['resource'], q: string): string {
  return resource === 'cpu' ? `${Number(quantity(q).toFixed(3))} CPU` : q;
}

/**
 * The organization's quota in the admin portal: per resource, what its pods use of what its tier
 * allows. A full resource is red: starts that need it are refused until something stops or a
 * superadmin moves the organization to another tier.
 */
export function QuotaUsage({ organizationId }: { organizationId: string }) {
  const quota = useQuota(organizationId);
  if (quota.isPending) return <Skeleton h={160} />;
  if (quota.isError) {
    return (
      <Alert color="red" title="The quota could not be read">
        {quota.error.message}
      </Alert>
    );
  }
  const { tier, quota: lines } = quota.data;
  return (
    <Paper withBorder p="lg">
      <Stack gap="sm">
        <Title order={4}>Quota ({tier} tier)</Title>
        {!lines ? (
          <Text size="sm" c="dimmed">
            No quota applies yet: the organization has nothing on the cluster.
          </Text>
        ) : (
          <Table aria-label="Quota" verticalSpacing={6}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Resource</Table.Th>
                <Table.Th>In use</Table.Th>
                <Table.Th>Allowed</Table.Th>
                <Table.Th w="40%">Share</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {lines.map((l) => {
                const share = Math.min(100, (100 * quantity(l.used)) / quantity(l.hard)) || 0;
                return (
                  <Table.Tr key={l.resource}>
                    <Table.Td>{LABELS[l.resource]}</Table.Td>
                    <Table.Td>{shown(l.resource, l.used)}</Table.Td>
                    <Table.Td>{shown(l.resource, l.hard)}</Table.Td>
                    <Table.Td>
                      <Progress value={share} color={share >= 100 ? 'red' : share >= 80 ? 'orange' : 'teal'} aria-label={`${LABELS[l.resource]}: ${Math.round(share)}% used`} />
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
        <Text size="xs" c="dimmed">
          Starts that do not fit are refused, naming the resource. A superadmin raises the quota by changing the organization's tier.
        </Text>
      </Stack>
    </Paper>
  );
}
