import { useNavigate } from 'react-router';

import { AuthCard } from '@/app/routes/auth/auth-card';
import { paths } from '@/config/paths';
import { LoginForm } from '@/features/auth/components/login-form';
import { getSession, twoFactorStage } from '@/lib/auth';
import { notify } from '@/lib/notify';

/** Sign In (spec 000 §4): where the user goes next depends on 2FA. */
export function LoginRoute() {
  const navigate = useNavigate();
  return (
    <AuthCard title="Sign in to Ludis" subtitle="Projects, insights, workflows and datasets for your organization.">
      <LoginForm
        onSuccess={() => {
          // Errors of the failed attempts before this one are over.
          notify.clear();
          const stage = twoFactorStage(getSession());
          if (stage === 'enable') return navigate(paths.twoFactorEnable.getHref(), { replace: true });
          if (stage === 'verify') return navigate(paths.twoFactorVerify.getHref(), { replace: true });
          notify.success('Signed in successfully!');
          navigate(paths.root.getHref(), { replace: true });
        }}
      />
    </AuthCard>
  );
}
