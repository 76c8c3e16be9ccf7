import { Stack, Title } from '@mantine/core';
import { useNavigate } from 'react-router';

import { paths } from '@/config/paths';
import { ChangePasswordForm } from '@/features/auth/components/change-password-form';

export function ChangePasswordRoute() {
  const navigate = useNavigate();
  return (
    <Stack>
      <Title order={2}>Change password</Title>
      <ChangePasswordForm onDone={() => navigate(paths.profile.getHref())} />
    </Stack>
  );
}
