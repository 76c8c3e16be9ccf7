import '@mantine/charts/styles.css';

import { Button, Group, Select, Skeleton, Stack, Tabs } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';

import { PlatformStatus } from '@/components/platform-status';
import { PageHeader } from '@/components/ui/page-header';
import { DEFAULT_METRIC_PERIOD, type MetricPeriod } from '@/config/constants';
import { paths } from '@/config/paths';
import { type MetricEntity } from '@/features/admin/api/get-entity-metrics';
import { ActivityTable } from '@/features/admin/components/activity-table';
import { EntityUsageChart } from '@/features/admin/components/entity-usage-chart';
import { LoginsChart } from '@/features/admin/components/logins-chart';
import { type OrganizationCard, OrganizationCarousel } from '@/features/admin/components/organization-carousel';
import { PeriodSelect } from '@/features/admin/components/period-select';
import { UsageSummary } from '@/features/admin/components/usage-summary';
import { useActiveUserCounts } from '@/features/organizations/api/get-active-user-counts';
import { useOrganization } from '@/features/organizations/api/get-organization';
import { useOrganizations } from '@/features/organizations/api/get-organizations';
import { SizesTable } from '@/components/ui/sizes-table';
import { ComputeUsage } from '@/features/organizations/components/compute-usage';
import { QuotaUsage } from '@/features/organizations/components/quota-usage';
import { SecuritySettings } from '@/features/organizations/components/security-settings';
import { UsersList } from '@/features/users/components/users-list';
import { isSuperadmin, useSession } from '@/lib/auth';

const ENTITY_OPTIONS: { value: MetricEntity; label: string }[] = [
  { value: 'applications', label: 'Insights' },
  { value: 'projects', label: 'Projects' },
  { value: 'workflows', label: 'Workflows' },
  { value: 'datasets', label: 'Datasets' },
];

/** The organizations the caller administers: all for a superadmin, their own otherwise. */
function useAdministeredOrganizations(superadmin: boolean, ownId: string | undefined) {
  const all = useOrganizations({ page: 1, limit: 100 }, { enabled: superadmin });
  const own = useOrganization(superadmin ? undefined : ownId);
  const counts = useActiveUserCounts();
  const active = new Map((counts.data?.counts ?? []).map((c) => [c.id, c.active_users]));
  const list = superadmin ? (all.data?.organizations ?? []) : own.data ? [own.data.organization] : [];
  const cards: OrganizationCard[] = list.map((o) => ({ ...o, activeUsers: active.get(String(o.id)) ?? o.active_users }));
  return { cards, seatsDefinition: counts.data?.definition, pending: superadmin ? all.isPending : own.isPending };
}

/**
 * The admin portal (spec 001 §2): Overview, Users, User activities, Entity Usage, Security;
 * 'Add organization' for superadmins, 'Change Flighting' for administrators, 'Add users'.
 */
export function AdminPortalRoute() {
  const { user } = useSession();
  const superadmin = isSuperadmin(user);
  const ownOrg = user?.organization ? String(user.organization) : undefined;
  const [tab, setTab] = useState<string | null>('overview');
  const [period, setPeriod] = useState<MetricPeriod>(DEFAULT_METRIC_PERIOD);
  const [entity, setEntity] = useState<MetricEntity>('applications');
  const [securityOrg, setSecurityOrg] = useState<string | null>(ownOrg ?? null);
  const orgs = useAdministeredOrganizations(superadmin, ownOrg);
  const scope = superadmin ? undefined : ownOrg;
  const securityTarget = orgs.cards.find((o) => String(o.id) === securityOrg) ?? orgs.cards[0];

  return (
    <>
      <PageHeader
        title="Admin portal"
        actions={
          <>
            {superadmin && (
              <Button variant="default" component={Link} to={paths.organizationNew.getHref('admin-portal')}>
                Add organization
              </Button>
            )}
            {user?.role === 'administrator' && (
              <Button variant="default" component={Link} to={paths.flightSettings.getHref()}>
                Change Flighting
              </Button>
            )}
            {ownOrg && (
              <Button component={Link} to={paths.organizationUserNew.getHref(ownOrg, 'admin-portal')}>
                Add users
              </Button>
            )}
          </>
        }
      />
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List mb="md" aria-label="Admin portal sections">
          <Tabs.Tab value="overview">Overview</Tabs.Tab>
          <Tabs.Tab value="users">Users</Tabs.Tab>
          <Tabs.Tab value="activities">User activities</Tabs.Tab>
          <Tabs.Tab value="usage">Entity Usage</Tabs.Tab>
          <Tabs.Tab value="security">Security</Tabs.Tab>
        </Tabs.List>

        <Tabs.Panel value="overview">
          <Stack>
            <Group justify="flex-end">
              <PeriodSelect value={period} onChange={setPeriod} />
            </Group>
            {orgs.pending ? <Skeleton h={160} /> : <OrganizationCarousel organizations={orgs.cards} seatsDefinition={orgs.seatsDefinition} />}
            <UsageSummary period={period} organizationId={scope} />
            <LoginsChart period={period} organization={scope} />
            <PlatformStatus />
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="users">
          {/* 'Add users' is the page's; a superadmin sees every organization's users, so which one. */}
          <UsersList
            organizationId={scope}
            addUser={false}
            organizationNames={superadmin ? new Map(orgs.cards.map((o) => [String(o.id), o.name])) : undefined}
          />
        </Tabs.Panel>

        <Tabs.Panel value="activities">
          <Stack>
            <Group justify="flex-end">
              <PeriodSelect value={period} onChange={setPeriod} />
            </Group>
            <LoginsChart period={period} organization={scope} />
            <ActivityTable entity="all" period={period} organizationId={scope} />
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="usage">
          <Stack>
            <Group justify="space-between">
              <Select
                aria-label="Asset kind"
                data={ENTITY_OPTIONS}
                value={entity}
                onChange={(v) => v && setEntity(v as MetricEntity)}
                allowDeselect={false}
                w={200}
              />
              <PeriodSelect value={period} onChange={setPeriod} />
            </Group>
            {(scope ?? ownOrg) && <QuotaUsage organizationId={(scope ?? ownOrg) as string} />}
            {(scope ?? ownOrg) && <ComputeUsage organizationId={(scope ?? ownOrg) as string} period={period} />}
            <SizesTable />
            {(scope ?? ownOrg) && (
              <EntityUsageChart
                organizationId={(scope ?? ownOrg) as string}
                entity={entity}
                label={ENTITY_OPTIONS.find((o) => o.value === entity)?.label ?? entity}
                period={period}
              />
            )}
            <ActivityTable key={entity} entity={entity} period={period} organizationId={scope} />
          </Stack>
        </Tabs.Panel>

        <Tabs.Panel value="security">
          <Stack>
            {superadmin && orgs.cards.length > 1 && (
              <Select
                label="Organization"
                data={orgs.cards.map((o) => ({ value: String(o.id), label: o.name }))}
                value={securityTarget ? String(securityTarget.id) : null}
                onChange={setSecurityOrg}
                allowDeselect={false}
                w={300}
              />
            )}
            {securityTarget ? <SecuritySettings key={securityTarget.id} organization={securityTarget} /> : <Skeleton h={120} />}
          </Stack>
        </Tabs.Panel>
      </Tabs>
    </>
  );
}
