import { Badge, Button, Group, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useState } from 'react';

import { useEnable2fa } from '@/features/auth/api/enable-2fa';
import { TwoFactorEnableModal } from '@/features/auth/components/two-factor-enable-modal';
import type { User } from '@/lib/api/types';
import { getSession, setSession } from '@/lib/auth';
import { notify } from '@/lib/notify';

/** The profile's two-factor section: Enable or Disable, with an 'Active' indicator. */
export function TwoFactorSection({ user }: { user: User }) {
  const [enabling, setEnabling] = useState(false);
  const active = !!user.enabled_2fa;
  const disable = useEnable2fa({
    onSuccess: () => {
      const s = getSession();
      if (s.user) setSession({ user: { ...s.user, enabled_2fa: false, confirmed_2fa: false } });
      notify.success('2FA Status Updated Successfully!');
    },
  });

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
              loading={disable.isPending}
              disabled={!!user.is_2fa_required}
              onClick={() => disable.mutate({ uid: user.uid, enabled: false })}
            >
              Disable
            </Button>
          </Tooltip>
        ) : (
          <Button onClick={() => setEnabling(true)}>Enable</Button>
        )}
      </Group>
      <TwoFactorEnableModal opened={enabling} onClose={() => setEnabling(false)} onVerified={() => setEnabling(false)} />
    </Paper>
  );
}
