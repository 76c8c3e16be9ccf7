import { Paper, Stack, Text, Title } from '@mantine/core';

import { useFlighting } from '@/features/flighting/api/get-flighting';
import { PinnedInsights } from '@/features/home/components/pinned-insights';
import { useSession } from '@/lib/auth';
import { isPinnedAreaVisible } from '@/lib/flighting';

/** Home: a welcome banner greeting by first name, and the pinned insights (spec 000 §1–2). */
export function HomeRoute() {
  const { user } = useSession();
  const flighting = useFlighting();
  const showPinned = isPinnedAreaVisible(flighting.data?.flightings, user?.role);
  return (
    <Stack gap="xl">
      <Paper p="xl" radius="md" bg="indigo.0">
        <Title order={2}>Welcome, {user?.first_name || 'there'}!</Title>
        <Text c="dimmed" mt={4}>
          Projects, insights, workflows and datasets for your organization.
        </Text>
      </Paper>
      {showPinned && <PinnedInsights />}
    </Stack>
  );
}
