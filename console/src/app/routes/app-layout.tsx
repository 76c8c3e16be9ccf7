import { Outlet, useNavigate } from 'react-router';

import { DashboardLayout } from '@/components/layout/dashboard-layout';
import { DEFAULT_DOCUMENTATION_URL } from '@/config/constants';
import { paths } from '@/config/paths';
import { useLogout } from '@/features/auth/api/logout';
import { useFlighting } from '@/features/flighting/api/get-flighting';
import { useConfig } from '@/lib/api/get-config';
import { useSession } from '@/lib/auth';

export const DEFAULT_SUPPORT_EMAIL = 'support@ludis.dev';

/** The signed-in shell: sidebar fed by the user's flighting and the server's config. */
export function AppLayoutRoute() {
  const { user } = useSession();
  const navigate = useNavigate();
  const flighting = useFlighting();
  const config = useConfig();
  const logout = useLogout({ onSettled: () => navigate(paths.login.getHref(), { replace: true }) });

  return (
    <DashboardLayout
      user={user}
      flightings={flighting.data?.flightings}
      supportEmail={config.data?.config?.supportEmail || DEFAULT_SUPPORT_EMAIL}
      documentationUrl={config.data?.config?.documentationUrl || DEFAULT_DOCUMENTATION_URL}
      onLogout={() => logout.mutate()}
    >
      <Outlet />
    </DashboardLayout>
  );
}
