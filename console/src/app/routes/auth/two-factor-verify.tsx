import { Modal } from '@mantine/core';
import { useNavigate } from 'react-router';

import { AuthCard } from '@/app/routes/auth/auth-card';
import { paths } from '@/config/paths';
import { TwoFactorVerifyForm } from '@/features/auth/components/two-factor-verify-form';

/** The verify modal, shown until verified; success goes to / (spec 000 §2). */
export function TwoFactorVerifyRoute() {
  const navigate = useNavigate();
  return (
    <AuthCard title="Two-factor authentication">
      <Modal opened onClose={() => undefined} withCloseButton={false} closeOnEscape={false} closeOnClickOutside={false} title="Verify your sign-in" centered>
        <TwoFactorVerifyForm onVerified={() => navigate(paths.root.getHref(), { replace: true })} />
      </Modal>
    </AuthCard>
  );
}
