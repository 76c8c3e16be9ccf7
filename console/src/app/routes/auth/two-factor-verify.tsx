import { useNavigate } from 'react-router';

import { AuthCard } from '@/app/routes/auth/auth-card';
import { paths } from '@/config/paths';
import { TwoFactorVerifyForm } from '@/features/auth/components/two-factor-verify-form';

/**
 * The second step of signing in (spec 000 §2's verify modal), in the sign-in page's card with its
 * logo, shown until verified; success goes to /.
 */
export function TwoFactorVerifyRoute() {
  const navigate = useNavigate();
  return (
    <AuthCard title="Verify your sign-in" subtitle="Two-factor authentication">
      <TwoFactorVerifyForm onVerified={() => navigate(paths.root.getHref(), { replace: true })} />
    </AuthCard>
  );
}
