import { Skeleton } from '@mantine/core';
import { useNavigate, useParams, useSearchParams } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import { useOrganization } from '@/features/organizations/api/get-organization';
import { OrganizationForm } from '@/features/organizations/components/organization-form';

const crumbs = [{ label: 'Organizations', href: paths.organizations.getHref() }];

export function OrganizationNewRoute() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const fromPortal = search.get('from') === 'admin-portal';
  return (
    <>
      <PageHeader title="Add organization" crumbs={[...crumbs, { label: 'New' }]} />
      <OrganizationForm
        requireBucket={fromPortal}
        onSaved={() => navigate(fromPortal ? paths.adminPortal.getHref() : paths.organizations.getHref())}
      />
    </>
  );
}

export function OrganizationEditRoute() {
  const { organizationId = '' } = useParams();
  const navigate = useNavigate();
  const org = useOrganization(organizationId);
  return (
    <>
      <PageHeader title={org.data?.organization.name ?? 'Organization'} crumbs={[...crumbs, { label: 'Edit' }]} />
      {org.isPending && <Skeleton h={300} />}
      {org.isError && <QueryError error={org.error} onRetry={() => org.refetch()} back={{ label: 'Back to Organizations', href: paths.organizations.getHref() }} />}
      {org.data && (
        <OrganizationForm
          key={org.dataUpdatedAt}
          organization={org.data.organization}
          onSaved={() => navigate(paths.organizations.getHref())}
          onDeleted={() => navigate(paths.organizations.getHref(), { replace: true })}
        />
      )}
    </>
  );
}
