import { Badge, Group, Paper, Skeleton, Stack, Table, Text, Title } from '@mantine/core';

import { describeSize } from '@/components/ui/size-select';
import { useSizes } from '@/lib/sizes';

/**
 * The administrator's hardware sizes, read-only (the ConfigMap `ludis-sizes`, edited with the
 * chart or kubectl): what each gives, and which is the default of what.
 */
export function SizesTable() {
  const sizes = useSizes();
  if (sizes.isPending) return <Skeleton h={120} />;
  if (sizes.isError) {
    return (
      <Text c="red" size="sm" role="alert">
        {sizes.error.message}
      </Text>
    );
  }
  const { sizes: list, default: projects, default_insight: insights } = sizes.data;
  return (
    <Paper withBorder p="lg">
      <Stack gap="sm">
        <Title order={4}>Hardware sizes</Title>
        <Table aria-label="Hardware sizes" verticalSpacing={6}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Size</Table.Th>
              <Table.Th>Gives</Table.Th>
              <Table.Th>For</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.map((s) => (
              <Table.Tr key={s.id}>
                <Table.Td>
                  <Group gap={6}>
                    <Text fw={500}>{s.id}</Text>
                    {s.id === projects && <Badge variant="light">default: projects, notebooks, tasks</Badge>}
                    {s.id === insights && <Badge variant="light" color="grape">default: apps, reports</Badge>}
                  </Group>
                </Table.Td>
                <Table.Td>{describeSize(s).split(' · ').slice(1).join(' · ')}</Table.Td>
                <Table.Td>{s.purpose}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Text size="xs" c="dimmed">
          The platform's administrators change sizes with the chart's sizes values or the ConfigMap ludis-sizes.
        </Text>
      </Stack>
    </Paper>
  );
}
