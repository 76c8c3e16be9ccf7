import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { OrganizationsTable } from '@/features/organizations/components/organizations-table';

export function OrganizationsRoute() {
  return (
    <>
      <PageHeader title="Organizations" crumbs={[{ label: 'Admin Page', href: paths.manageOrganizations.getHref() }, { label: 'Organizations' }]} />
      <OrganizationsTable />
    </>
  );
}
