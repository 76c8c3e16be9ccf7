import { Alert, Anchor, Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPinned } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { MAX_PINNED_INSIGHTS } from '@/config/constants';
import { paths } from '@/config/paths';

export const NO_PINNED = 'You have no pinned assets...';

type Props<T> = {
  /** The pinned insights, newest pin first (undefined while loading). */
  items: T[] | undefined;
  isPending: boolean;
  error: Error | null;
  getKey: (item: T) => string | number;
  /** How one pinned insight looks (the route passes the insight card). */
  renderItem: (item: T) => ReactNode;
};

/** Up to 6 pinned insights, or 'You have no pinned assets...' (spec 000 §1). */
export function PinnedInsights<T>({ items, isPending, error, getKey, renderItem }: Props<T>) {
  const shown = (items ?? []).slice(0, MAX_PINNED_INSIGHTS);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>Pinned insights</Title>
        <Button component={Link} to={paths.insights.getHref()} variant="light">
          Go to Dashboard
        </Button>
      </Group>
      {isPending && (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} aria-label="Loading pinned insights">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={240} radius="md" />
          ))}
        </SimpleGrid>
      )}
      {error && !items && (
        <Alert color="yellow" variant="light" title="Pinned insights are unavailable">
          {error.message}
        </Alert>
      )}
      {!isPending && items && shown.length === 0 && (
        <Card withBorder padding="xl">
          <Stack align="center" gap="xs">
            <IconPinned size={32} color="var(--mantine-color-dimmed)" />
            <Text c="dimmed">{NO_PINNED}</Text>
            <Text size="sm" c="dimmed">
              Pin an insight from the <Anchor component={Link} to={paths.insights.getHref()}>Insights</Anchor> page to keep it here.
            </Text>
          </Stack>
        </Card>
      )}
      {shown.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} role="list" aria-label="Pinned insights">
          {shown.map((item) => (
            <div key={getKey(item)} role="listitem">
              {renderItem(item)}
            </div>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
