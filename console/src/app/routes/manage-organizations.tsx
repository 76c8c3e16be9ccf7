import { Card, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { IconAdjustments, IconBuilding, IconStack2, IconUsers } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';

import { PageHeader } from '@/components/ui/page-header';
import { paths } from '@/config/paths';
import { isSuperadmin, useSession } from '@/lib/auth';

function Tile({ to, icon, title, text }: { to: string; icon: ReactNode; title: string; text: string }) {
  return (
    <Card component={Link} to={to} withBorder padding="lg" radius="md">
      <ThemeIcon size={40} radius="md" variant="light">
        {icon}
      </ThemeIcon>
      <Text fw={600} mt="md">
        {title}
      </Text>
      <Text size="sm" c="dimmed">
        {text}
      </Text>
    </Card>
  );
}

/** The admin page: a superadmin manages organizations and collections; others users and flighting. */
export function ManageOrganizationsRoute() {
  const { user } = useSession();
  const org = user?.organization ?? '';
  return (
    <>
      <PageHeader title="Admin Page" />
      <SimpleGrid cols={{ base: 1, sm: 2 }} maw={720}>
        {isSuperadmin(user) ? (
          <>
            <Tile to={paths.organizations.getHref()} icon={<IconBuilding />} title="Manage Organizations" text="Add, edit and remove organizations." />
            <Tile to={paths.collections.getHref()} icon={<IconStack2 />} title="Manage Collections" text="The collections of the web3 area." />
          </>
        ) : (
          <>
            <Tile to={paths.organizationUsers.getHref(org)} icon={<IconUsers />} title="Manage Users" text="Add, edit and remove your organization's users." />
            <Tile to={paths.flightSettings.getHref()} icon={<IconAdjustments />} title="Manage Flight Config" text="Which features each role can use." />
          </>
        )}
      </SimpleGrid>
    </>
  );
}
