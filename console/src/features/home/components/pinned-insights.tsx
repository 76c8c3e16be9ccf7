import { Alert, Anchor, Button, Card, Group, Image, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPinned } from '@tabler/icons-react';
import { Link } from 'react-router';

import { MAX_PINNED_INSIGHTS } from '@/config/constants';
import { paths } from '@/config/paths';
import { usePinnedInsights } from '@/features/home/api/get-pinned-insights';

export const NO_PINNED = 'You have no pinned assets...';

/** Up to 6 pinned insights, or 'You have no pinned assets...' (spec 000 §1). */
export function PinnedInsights() {
  const pins = usePinnedInsights();
  const items = (pins.data?.applications ?? []).slice(0, MAX_PINNED_INSIGHTS);

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>Pinned insights</Title>
        <Button component={Link} to={paths.insights.getHref()} variant="light">
          Go to Dashboard
        </Button>
      </Group>
      {pins.isPending && (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} aria-label="Loading pinned insights">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={140} radius="md" />
          ))}
        </SimpleGrid>
      )}
      {pins.isError && (
        <Alert color="yellow" variant="light" title="Pinned insights are unavailable">
          {pins.error.message}
        </Alert>
      )}
      {pins.isSuccess && items.length === 0 && (
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
      {items.length > 0 && (
        <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }} role="list" aria-label="Pinned insights">
          {items.map((app) => (
            <Card key={app.id} withBorder padding="md" role="listitem">
              {app.img_path && (
                <Card.Section>
                  <Image src={app.img_path} alt="" h={100} fit="cover" />
                </Card.Section>
              )}
              <Text fw={600} mt="sm" lineClamp={1}>
                {app.name}
              </Text>
              {app.description && (
                <Text size="sm" c="dimmed" lineClamp={2}>
                  {app.description}
                </Text>
              )}
            </Card>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}
