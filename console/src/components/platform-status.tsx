import { Badge, Group, Paper, Skeleton, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';

import { fetchReadiness } from '@/lib/readiness';

/** What the API's /readyz says about each dependency. */
export function PlatformStatus() {
  const ready = useQuery({
    queryKey: ['readyz'],
    queryFn: ({ signal }) => fetchReadiness(signal),
    refetchInterval: 30_000,
    meta: { silent: true },
  });
  return (
    <Paper withBorder p="lg">
      <Title order={4} mb="sm">
        Platform status
      </Title>
      {ready.isPending && <Skeleton h={24} />}
      {ready.isError && (
        <Text c="red" role="alert">
          The API cannot be reached: {ready.error.message}
        </Text>
      )}
      {ready.data && (
        <Group gap="xs" role="list" aria-label="Platform status">
          {Object.entries(ready.data.checks).map(([name, value]) => (
            <Badge key={name} role="listitem" color={value.startsWith('error') ? 'red' : 'green'} variant="light" tt="none">
              {name}: {value}
            </Badge>
          ))}
        </Group>
      )}
    </Paper>
  );
}
