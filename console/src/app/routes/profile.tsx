import { Alert, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';

import { paths } from '@/config/paths';

import { TwoFactorSection } from '@/features/auth/components/two-factor-section';
import { useUser } from '@/features/users/api/get-user';
import { useConfig } from '@/lib/api/get-config';
import { ProfileForm } from '@/features/users/components/profile-form';
import { useSession } from '@/lib/auth';

/** Profile settings: the form, the password card (Change Password), then the two-factor section. */
export function ProfileRoute() {
  const session = useSession();
  const fresh = useUser(session.user?.id);
  const config = useConfig();
  // The stored user answers at once; the server's copy refreshes it.
  const user = fresh.data?.user ? { ...session.user, ...fresh.data.user } : session.user;
  return (
    <Stack>
      <Title order={2}>Profile settings</Title>
      {!user && <Skeleton h={300} />}
      {fresh.isError && (
        <Alert color="yellow" variant="light">
          Showing your saved profile: {fresh.error.message}
        </Alert>
      )}
      {user && (
        <>
          <ProfileForm user={user} photoUpload={config.data?.config?.photoUpload ?? true} />
          <Paper withBorder p="lg">
            <Group justify="space-between" wrap="wrap" gap="sm">
              <div>
                <Title order={4}>Password</Title>
                <Text size="sm" c="dimmed">
                  The password you sign in with.
                </Text>
              </div>
              <Button variant="default" component={Link} to={paths.changePassword.getHref()}>
                Change Password
              </Button>
            </Group>
          </Paper>
          <TwoFactorSection user={{ ...user, enabled_2fa: session.user?.enabled_2fa ?? user.enabled_2fa }} />
        </>
      )}
    </Stack>
  );
}
