import { Alert, Anchor, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

import { EmptyState } from '@/components/ui/empty-state';
import { useDates } from '@/lib/dates';

/** One thing the user has access to, as Home lists it. */
export type RecentItem = { id: string; name: string; href: string; updatedAt: number | null | undefined; detail?: string };

/** How many recent things of each kind Home lists. */
export const RECENT_ITEMS = 4;

type Props = {
  title: string;
  /** The kind's own page ('See all'). */
  seeAll: { label: string; href: string };
  items: RecentItem[] | undefined;
  isPending: boolean;
  error: Error | null;
  empty: { title: string; hint?: string };
};

/**
 * A Home section: the most recently updated things of one kind the user can see (newest first, at
 * most RECENT_ITEMS), each a link with when it changed; an empty state when there are none.
 */
export function RecentList({ title, seeAll, items, isPending, error, empty }: Props) {
  const dates = useDates();
  const shown = [...(items ?? [])].sort((a, b) => (b.updatedAt ?? 0) - (a.updatedAt ?? 0)).slice(0, RECENT_ITEMS);
  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="sm" wrap="nowrap">
        <Title order={4}>{title}</Title>
        <Anchor component={Link} to={seeAll.href} size="sm">
          {seeAll.label}
        </Anchor>
      </Group>
      {isPending && (
        <Stack gap={8} role="status" aria-label={`Loading ${title.toLowerCase()}`}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={20} />
          ))}
        </Stack>
      )}
      {error && !items && (
        <Alert color="yellow" variant="light">
          {error.message}
        </Alert>
      )}
      {!isPending && items && shown.length === 0 && <EmptyState title={empty.title} hint={empty.hint} />}
      {shown.length > 0 && (
        <Stack gap={10} role="list">
          {shown.map((item) => (
            <Group key={item.id} justify="space-between" wrap="nowrap" gap="sm" role="listitem">
              <Stack gap={0} miw={0}>
                <Anchor component={Link} to={item.href} fw={500} truncate="end">
                  {item.name}
                </Anchor>
                {item.detail && (
                  <Text size="xs" c="dimmed" truncate="end">
                    {item.detail}
                  </Text>
                )}
              </Stack>
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {dates.relative(item.updatedAt)}
              </Text>
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
