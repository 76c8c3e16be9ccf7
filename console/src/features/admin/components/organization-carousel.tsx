import { ActionIcon, Badge, Button, Card, Group, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { DefinitionHint } from '@/components/ui/definition-hint';
import { EmptyState } from '@/components/ui/empty-state';
import { CAROUSEL_CARDS } from '@/config/constants';
import { paths } from '@/config/paths';
import type { Organization } from '@/lib/api/types';

export type OrganizationCard = Organization & { activeUsers?: number };

/** The slice of `items` shown at `start`, `size` at a time. */
export function carouselWindow<T>(items: readonly T[], start: number, size = CAROUSEL_CARDS): T[] {
  return items.slice(start, start + size);
}

/**
 * Organization cards, 4 at a time (spec 001 §2). Each shows the admin e-mail, seat usage
 * ('Active users' over max seats, with the API's definition of what it counts) and 'View in
 * Legacy Mode'.
 */
export function OrganizationCarousel({ organizations, seatsDefinition }: { organizations: OrganizationCard[]; seatsDefinition?: string }) {
  const [start, setStart] = useState(0);
  if (organizations.length === 0) return <EmptyState title="No organizations to show" />;
  const visible = carouselWindow(organizations, start);
  const canBack = start > 0;
  const canForward = start + CAROUSEL_CARDS < organizations.length;

  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Text size="sm" c="dimmed">
          {organizations.length > CAROUSEL_CARDS
            ? `${start + 1}–${Math.min(start + CAROUSEL_CARDS, organizations.length)} of ${organizations.length} organizations`
            : `${organizations.length} organization${organizations.length === 1 ? '' : 's'}`}
        </Text>
        {organizations.length > CAROUSEL_CARDS && (
          <Group gap={4}>
            <ActionIcon variant="default" aria-label="Previous organizations" disabled={!canBack} onClick={() => setStart((s) => Math.max(0, s - CAROUSEL_CARDS))}>
              <IconChevronLeft size={16} />
            </ActionIcon>
            <ActionIcon variant="default" aria-label="Next organizations" disabled={!canForward} onClick={() => setStart((s) => s + CAROUSEL_CARDS)}>
              <IconChevronRight size={16} />
            </ActionIcon>
          </Group>
        )}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} role="list" aria-label="Organizations">
        {visible.map((o) => {
          const used = o.activeUsers ?? o.active_users ?? 0;
          const pct = o.max_seats > 0 ? Math.min(100, (used / o.max_seats) * 100) : 100;
          return (
            <Card key={o.id} withBorder padding="md" role="listitem" aria-label={o.name}>
              <Group justify="space-between" wrap="nowrap">
                <Text fw={600} truncate>
                  {o.name}
                </Text>
                <Badge variant="light" size="sm">
                  {o.tier}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed" truncate>
                {o.admin_email}
              </Text>
              <Group gap={4} mt="sm" wrap="nowrap">
                <Text size="sm">
                  Active users: {used} / {o.max_seats}
                </Text>
                {seatsDefinition && <DefinitionHint label={`Active users of ${o.name}`} definition={seatsDefinition} />}
              </Group>
              <Progress value={pct} color={pct >= 100 ? 'red' : 'indigo'} size="sm" mt={4} aria-label={`Seats used by ${o.name}`} />
              <Button component={Link} to={paths.organizationUsers.getHref(o.id)} variant="subtle" size="xs" mt="sm" px={0}>
                View in Legacy Mode
              </Button>
            </Card>
          );
        })}
      </SimpleGrid>
    </Stack>
  );
}
