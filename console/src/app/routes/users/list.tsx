import { useParams } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { useOrganization } from '@/features/organizations/api/get-organization';
import { UsersList } from '@/features/users/components/users-list';
import { isSuperadmin, useSession } from '@/lib/auth';

export function OrganizationUsersRoute() {
  const { organizationId = '' } = useParams();
  const { user } = useSession();
  const org = useOrganization(organizationId);
  const name = org.data?.organization.name ?? 'Organization';
  return (
    <>
      <PageHeader
        title={`${name}: users`}
        crumbs={[
          isSuperadmin(user)
            ? { label: 'Organizations', href: paths.organizations.getHref() }
            : { label: 'Admin Page', href: paths.manageOrganizations.getHref() },
          { label: name },
        ]}
      />
      <UsersList organizationId={organizationId} />
    </>
  );
}
