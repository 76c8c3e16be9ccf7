import { useParams } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { ROLES } from '@/config/constants';
import { paths } from '@/config/paths';
import { FlightSettings } from '@/features/flighting/components/flight-settings';
import { useOrganization } from '@/features/organizations/api/get-organization';
import { useConfig } from '@/lib/api/get-config';
import { isSuperadmin, useSession } from '@/lib/auth';

/**
 * /flight-settings (an administrator's own organization) and
 * /organizations/{id}/flight-settings (a superadmin's chosen organization).
 * The breadcrumb 'Admin Page' goes to /organizations/{id}/users for a superadmin and to
 * /manage-organizations for others (spec 000 §6).
 */
export function FlightSettingsRoute() {
  const { organizationId: fromRoute } = useParams();
  const { user } = useSession();
  const config = useConfig();
  const superadmin = isSuperadmin(user);
  const organizationId = (superadmin && fromRoute) || user?.organization || fromRoute || '';
  const back = superadmin ? paths.organizationUsers.getHref(organizationId) : paths.manageOrganizations.getHref();
  // Name the organization these flags are for: a superadmin may be configuring any of them.
  const org = useOrganization(organizationId || undefined);
  const orgName = org.data?.organization.name;
  return (
    <>
      <PageHeader
        title={orgName ? `Flighting configuration: ${orgName}` : 'Flighting configuration'}
        crumbs={[{ label: 'Admin Page', href: back }, { label: 'Flight settings' }]}
      />
      <FlightSettings
        key={organizationId}
        organizationId={organizationId}
        superadmin={superadmin}
        serverRoles={config.data?.config?.roles?.length ? config.data.config.roles : ROLES}
      />
    </>
  );
}
