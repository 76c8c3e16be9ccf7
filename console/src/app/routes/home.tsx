import { Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';

import { RecentAssets } from '@/app/routes/home-recent';
import { useFlighting } from '@/features/flighting/api/get-flighting';
import { PinnedInsights } from '@/features/home/components/pinned-insights';
import { usePinnedInsights } from '@/features/insights/api/get-pinned-insights';
import type { InsightView } from '@/lib/api/types';
import { InsightCard } from '@/features/insights/components/insight-card';
import { ShareModal } from '@/features/sharing/components/share-modal';
import { useSession } from '@/lib/auth';
import { isPinnedAreaVisible } from '@/lib/flighting';

/**
 * Home: a welcome banner greeting by first name, the pinned insights as cards (spec 000 §1–2), and
 * the recent insights, datasets and projects the user has access to.
 */
export function HomeRoute() {
  const { user } = useSession();
  const flighting = useFlighting();
  const showPinned = isPinnedAreaVisible(flighting.data?.flightings, user?.role);
  // Wait for the flags: a role without insights gets no pin call at all.
  const pins = usePinnedInsights({ enabled: showPinned && !flighting.isPending });
  const [sharing, setSharing] = useState<InsightView | null>(null);
  return (
    <Stack gap="xl">
      <Paper p="xl" radius="md" bg="indigo.0">
        <Title order={2}>Welcome, {user?.first_name || 'there'}!</Title>
        <Text c="dimmed" mt={4}>
          Projects, insights, workflows and datasets for your organization.
        </Text>
      </Paper>
      {showPinned && (
        <PinnedInsights
          items={pins.data?.applications}
          isPending={pins.isPending}
          error={pins.error}
          getKey={(i) => i.id}
          renderItem={(i) => <InsightCard insight={i} onShare={setSharing} />}
        />
      )}
      {!flighting.isPending && <RecentAssets flightings={flighting.data?.flightings} role={user?.role} />}
      {sharing && (
        <ShareModal
          opened
          entityId={sharing.id}
          entityType="Application"
          entityLabel={sharing.name}
          onClose={() => setSharing(null)}
        />
      )}
    </Stack>
  );
}
