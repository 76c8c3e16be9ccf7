import { Paper } from '@mantine/core';
import { useNavigate } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { ChangePasswordForm } from '@/features/auth/components/change-password-form';

/** /changepassword: the form in a card; the breadcrumb is the way back to profile settings. */
export function ChangePasswordRoute() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader title="Change password" crumbs={[{ label: 'Profile settings', href: paths.profile.getHref() }, { label: 'Change password' }]} />
      <Paper withBorder p="lg" radius="md" maw={480}>
        <ChangePasswordForm onDone={() => navigate(paths.profile.getHref())} />
      </Paper>
    </>
  );
}
