import { Skeleton } from '@mantine/core';
import { useNavigate, useParams, useSearchParams } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import { useOrganizations } from '@/features/organizations/api/get-organizations';
import { useUser } from '@/features/users/api/get-user';
import { UserForm } from '@/features/users/components/user-form';
import { isSuperadmin, useSession } from '@/lib/auth';

function useBack(organizationId: string) {
  const navigate = useNavigate();
  return () => navigate(paths.organizationUsers.getHref(organizationId));
}

export function UserNewRoute() {
  const { organizationId = '' } = useParams();
  const { user: me } = useSession();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const usersPage = useBack(organizationId);
  // From the admin portal a superadmin picks the organization (spec 001 §5).
  const fromPortal = search.get('from') === 'admin-portal';
  const pick = fromPortal && isSuperadmin(me);
  const orgs = useOrganizations({ page: 1, limit: 100 }, { enabled: pick });
  const back = fromPortal ? () => navigate(paths.adminPortal.getHref()) : usersPage;
  return (
    <>
      <PageHeader title="Add user" crumbs={[{ label: 'Users', href: paths.organizationUsers.getHref(organizationId) }, { label: 'New' }]} />
      <UserForm
        mode="create"
        organizationId={organizationId}
        me={me}
        onDone={back}
        organizationOptions={pick ? (orgs.data?.organizations ?? []).map((o) => ({ value: o.id, label: o.name })) : undefined}
      />
    </>
  );
}

export function UserEditRoute() {
  const { organizationId = '', userId = '' } = useParams();
  const { user: me } = useSession();
  const back = useBack(organizationId);
  const target = useUser(userId);
  return (
    <>
      <PageHeader title="Edit user" crumbs={[{ label: 'Users', href: paths.organizationUsers.getHref(organizationId) }, { label: 'Edit' }]} />
      {target.isPending && <Skeleton h={260} />}
      {target.isError && <QueryError error={target.error} onRetry={() => target.refetch()} back={{ label: 'Back to Users', href: paths.organizationUsers.getHref(organizationId) }} />}
      {target.data && <UserForm key={userId} mode="edit" organizationId={organizationId} me={me} user={target.data.user} onDone={back} />}
    </>
  );
}
