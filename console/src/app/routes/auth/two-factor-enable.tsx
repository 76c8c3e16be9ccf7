import { Anchor } from '@mantine/core';
import { Link, useNavigate } from 'react-router';

import { AuthCard } from '@/app/routes/auth/auth-card';
import { paths } from '@/config/paths';
import { TwoFactorEnableModal } from '@/features/auth/components/two-factor-enable-modal';
import { clearSession } from '@/lib/auth';

/** Your organization requires 2FA and it is not enabled yet: enrol before going on. */
export function TwoFactorEnableRoute() {
  const navigate = useNavigate();
  return (
    <AuthCard title="Two-factor authentication" subtitle="Your organization requires two-factor authentication.">
      <TwoFactorEnableModal
        opened
        closable={false}
        onClose={() => undefined}
        onVerified={() => navigate(paths.root.getHref(), { replace: true })}
        footer={
          <Anchor component={Link} to={paths.login.getHref()} onClick={() => clearSession()} size="sm">
            Back
          </Anchor>
        }
      />
    </AuthCard>
  );
}
