import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { CollectionForm } from '@/features/web3/components/collection-form';
import { CollectionsTable } from '@/features/web3/components/collections-table';
import { Web3Explorer } from '@/features/web3/components/web3-explorer';

/** The web3 screens (issue 18; docs/contracts/web3.md): the collections (superadmins) and the graphs (everyone). */

const adminCrumb = { label: 'Admin Page', href: paths.manageOrganizations.getHref() };

export function CollectionsRoute() {
  return (
    <>
      <PageHeader title="Collections" crumbs={[adminCrumb, { label: 'Collections' }]} />
      <CollectionsTable />
    </>
  );
}

export function CollectionNewRoute() {
  return (
    <>
      <PageHeader title="Add Collection" crumbs={[adminCrumb, { label: 'Collections', href: paths.collections.getHref() }, { label: 'Add Collection' }]} />
      <CollectionForm />
    </>
  );
}

export function CryptoRoute() {
  return (
    <>
      <PageHeader title="Web3" />
      <Web3Explorer />
    </>
  );
}
