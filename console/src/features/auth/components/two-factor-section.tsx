import { Badge, Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useState } from 'react';

import { TwoFactorDisableModal } from '@/features/auth/components/two-factor-disable-modal';
import { TwoFactorEnableModal } from '@/features/auth/components/two-factor-enable-modal';
import type { User } from '@/lib/api/types';

/** The profile's two-factor section: Enable or Disable (with the password or a code), with an
 * 'Active' indicator. */
export function TwoFactorSection({ user }: { user: User }) {
  const [enabling, setEnabling] = useState(false);
  const [disabling, setDisabling] = useState(false);
  const active = !!user.enabled_2fa;

  return (
    <Paper withBorder p="lg">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Group gap="xs">
            <Title order={4}>Two-factor authentication</Title>
            {active && (
              <Badge color="green" variant="light">
                Active
              </Badge>
            )}
          </Group>
          <Text size="sm" c="dimmed">
            {active
              ? 'A code from your authenticator app is asked for at every sign-in.'
              : 'Protect your account with a code from an authenticator app.'}
          </Text>
        </Stack>
        {active ? (
          <Tooltip label="Your organization requires two-factor authentication" disabled={!user.is_2fa_required}>
            <Button
              color="red"
              variant="light"
              disabled={!!user.is_2fa_required}
              onClick={() => setDisabling(true)}
            >
              Disable
            </Button>
          </Tooltip>
        ) : (
          <Button onClick={() => setEnabling(true)}>Enable</Button>
        )}
      </Group>
      <TwoFactorEnableModal opened={enabling} onClose={() => setEnabling(false)} onVerified={() => setEnabling(false)} />
      <TwoFactorDisableModal
        opened={disabling}
        uid={user.uid}
        onClose={() => setDisabling(false)}
        onDisabled={() => setDisabling(false)}
      />
    </Paper>
  );
}
