import { ActionIcon, Badge, Button, Group, Pagination, Skeleton, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconUsers } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { EmptyState } from '@/components/ui/empty-state';
import { QueryError } from '@/components/ui/query-error';
import { LIST_PAGE_SIZE } from '@/config/constants';
import { paths } from '@/config/paths';
import { useActiveUserCounts } from '@/features/organizations/api/get-active-user-counts';
import { useOrganizations } from '@/features/organizations/api/get-organizations';

/** /organizations: pages of 10 with 'Add Organizations' (spec 001 §2). */
export function OrganizationsTable() {
  const [page, setPage] = useState(1);
  const orgs = useOrganizations({ page });
  const counts = useActiveUserCounts();
  const active = new Map((counts.data?.counts ?? []).map((c) => [c.id, c.active_users]));
  const rows = orgs.data?.organizations ?? [];
  const total = orgs.data?.total;
  const pages = typeof total === 'number' ? Math.max(1, Math.ceil(total / LIST_PAGE_SIZE)) : rows.length < LIST_PAGE_SIZE ? page : page + 1;

  return (
    <Stack>
      <Group justify="flex-end">
        <Button component={Link} to={paths.organizationNew.getHref()}>
          Add Organizations
        </Button>
      </Group>
      {orgs.isPending && <Skeleton h={240} aria-label="Loading organizations" />}
      {orgs.isError && <QueryError error={orgs.error} onRetry={() => orgs.refetch()} />}
      {orgs.isSuccess && rows.length === 0 && <EmptyState title="No organizations yet" hint="Add the first organization to invite its users." />}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover aria-label="Organizations">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Admin email</Table.Th>
                <Table.Th>Tier</Table.Th>
                <Table.Th>Active users</Table.Th>
                <Table.Th>2FA</Table.Th>
                <Table.Th data-row-actions />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((o) => (
                <Table.Tr key={o.id}>
                  <Table.Td>
                    <Text fw={500}>{o.name}</Text>
                  </Table.Td>
                  <Table.Td>{o.admin_email}</Table.Td>
                  <Table.Td>
                    <Badge variant="light" color={o.tier === 'paid' ? 'indigo' : 'gray'}>
                      {o.tier}
                    </Badge>
                  </Table.Td>
                  <Table.Td>
                    {active.get(String(o.id)) ?? o.active_users ?? '–'} / {o.max_seats}
                  </Table.Td>
                  <Table.Td>{o.is_2fa_required ? 'Required' : 'Optional'}</Table.Td>
                  <Table.Td data-row-actions>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label="Users">
                        <ActionIcon variant="subtle" component={Link} to={paths.organizationUsers.getHref(o.id)} aria-label={`Users of ${o.name}`}>
                          <IconUsers size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Edit">
                        <ActionIcon variant="subtle" component={Link} to={paths.organization.getHref(o.id)} aria-label={`Edit ${o.name}`}>
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && <Pagination total={pages} value={page} onChange={setPage} />}
    </Stack>
  );
}
