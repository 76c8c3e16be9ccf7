import { Button, Center, Loader, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import type { FeatureKey } from '@/lib/api/types';
import { paths } from '@/config/paths';
import { useFlighting } from '@/features/flighting/api/get-flighting';
import { useSession } from '@/lib/auth';
import { isFeatureEnabled } from '@/lib/flighting';

/** 'Datasets are not enabled for your role', and so on for each section. */
export function featureDisabledMessage(title: string) {
  return `${title} are not enabled for your role`;
}

/**
 * A section's screens only when its flag lets the user's role in (spec 000 §6), as the sidebar
 * decides; the API refuses the calls anyway (403). The flags are the layout's query (and
 * persisted), so this rarely waits; if they cannot be loaded the screen renders and its own calls
 * say what the API thinks.
 */
export function FeatureGate({ feature, title, children }: { feature: FeatureKey; title: string; children: ReactNode }) {
  const { user } = useSession();
  const flighting = useFlighting();
  const flags = flighting.data?.flightings;
  if (!flags && flighting.isPending) {
    return (
      <Center h="40vh" role="status" aria-label="Loading">
        <Loader />
      </Center>
    );
  }
  if (flags && !isFeatureEnabled(flags, feature, user?.role)) {
    return (
      <Center mih="50vh">
        <Stack align="center" gap="sm" maw={420}>
          <ThemeIcon size={56} radius="xl" variant="light" color="gray">
            <IconLock size={30} />
          </ThemeIcon>
          <Title order={2}>{title}</Title>
          <Text c="dimmed" ta="center">
            {featureDisabledMessage(title)}.
          </Text>
          <Button component={Link} to={paths.home.getHref()} variant="light">
            Back to Home
          </Button>
        </Stack>
      </Center>
    );
  }
  return children;
}
