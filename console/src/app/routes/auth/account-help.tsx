import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';

import { AuthCard } from '@/app/routes/auth/auth-card';
import { paths } from '@/config/paths';

/** /register, /resetpassword and /forgot_password: accounts are created and reset by administrators. */
export function AccountHelpRoute() {
  return (
    <AuthCard title="Need an account or a new password?">
      <Stack>
        <Text size="sm">
          Ludis accounts are created by your organization's administrator, who can also reset your password. Please ask
          them, then sign in.
        </Text>
        <Anchor component={Link} to={paths.login.getHref()}>
          Back to sign in
        </Anchor>
      </Stack>
    </AuthCard>
  );
}
