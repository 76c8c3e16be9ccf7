import { ActionIcon, Badge, Button, Group, Modal, Skeleton, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowsExchange, IconPencil, IconSearch, IconTrash } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router';

import { EmptyState } from '@/components/ui/empty-state';
import { LoadMore } from '@/components/ui/load-more';
import { QueryError } from '@/components/ui/query-error';
import { ROLE_LABELS, SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { paths } from '@/config/paths';
import { useDeleteUser } from '@/features/users/api/delete-user';
import { getAvailableSeatsQueryOptions } from '@/features/users/api/get-available-seats';
import { useUsers } from '@/features/users/api/get-users';
import { MigrateEntitiesModal } from '@/features/users/components/migrate-entities-modal';
import type { Id, User } from '@/lib/api/types';
import { isSuperadmin, useSession } from '@/lib/auth';
import { notify } from '@/lib/notify';

export const LIMIT_REACHED = 'Limit Reached';

function DeleteUser({ user }: { user: User }) {
  const [open, setOpen] = useState(false);
  const del = useDeleteUser({ onSuccess: () => notify.success('User Deleted') });
  return (
    <>
      <Tooltip label="Delete">
        <ActionIcon variant="subtle" color="red" aria-label={`Delete ${user.email}`} onClick={() => setOpen(true)} loading={del.isPending}>
          <IconTrash size={16} />
        </ActionIcon>
      </Tooltip>
      <Modal opened={open} onClose={() => setOpen(false)} title="Please confirm" centered>
        <Stack>
          <Text>Are you sure you want to delete this item?</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => {
                setOpen(false);
                del.mutate(user.id);
              }}
            >
              Delete
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/**
 * An organization's users (spec 001 §2): search after a 500 ms pause, pages of 10 loaded on
 * demand, 'Manage Flight Config' for superadmins, and 'Add User' after a seat check (left out with
 * `addUser={false}` where the screen has its own), and per user 'Migrate entities' (their assets of
 * a kind to another user). `organizationNames` (a list across organizations) adds an Organization
 * column.
 */
export function UsersList({
  organizationId,
  organizationNames,
  addUser: withAddUser = true,
}: {
  organizationId?: Id;
  organizationNames?: ReadonlyMap<string, string>;
  addUser?: boolean;
}) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { user: me } = useSession();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search.trim(), SEARCH_DEBOUNCE_MS);
  const [limit, setLimit] = useState<string | null>(null);
  const [checkingSeats, setCheckingSeats] = useState(false);
  const [migrating, setMigrating] = useState<User | null>(null);
  const users = useUsers({ organization: organizationId, searchTerm: debounced || undefined });
  const rows = users.data?.pages.flatMap((p) => p.users) ?? [];
  const orgId = organizationId ?? me?.organization ?? undefined;

  async function addUser() {
    if (orgId === undefined || orgId === null) return;
    setCheckingSeats(true);
    try {
      const seats = await queryClient.fetchQuery(getAvailableSeatsQueryOptions(orgId));
      if (seats.limitExceded || seats.availableSeats <= 0) {
        setLimit(seats.message || 'Your organization has no seats left. Raise its maximum seats or remove a user first.');
        return;
      }
      navigate(paths.organizationUserNew.getHref(orgId));
    } catch (e) {
      notify.error(e instanceof Error ? e.message : String(e));
    } finally {
      setCheckingSeats(false);
    }
  }

  return (
    <Stack>
      <Group justify="space-between">
        <TextInput
          placeholder="Search users"
          aria-label="Search users"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={280}
        />
        <Group gap="sm">
          {isSuperadmin(me) && orgId !== undefined && orgId !== null && (
            <Button variant="default" component={Link} to={paths.organizationFlightSettings.getHref(orgId)}>
              Manage Flight Config
            </Button>
          )}
          {withAddUser && orgId !== undefined && orgId !== null && (
            <Button onClick={addUser} loading={checkingSeats}>
              Add User
            </Button>
          )}
        </Group>
      </Group>

      {users.isPending && <Skeleton h={200} aria-label="Loading users" />}
      {users.isError && <QueryError error={users.error} onRetry={() => users.refetch()} />}
      {users.isSuccess && rows.length === 0 && (
        <EmptyState title={debounced ? `No users match “${debounced}”` : 'No users yet'} hint={debounced ? undefined : 'Add the first user of this organization.'} />
      )}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={640}>
          <Table striped highlightOnHover aria-label="Users">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Email</Table.Th>
                {organizationNames && <Table.Th>Organization</Table.Th>}
                <Table.Th>Role</Table.Th>
                <Table.Th>Status</Table.Th>
                <Table.Th>2FA</Table.Th>
                <Table.Th data-row-actions />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((u) => (
                <Table.Tr key={u.uid ?? u.id}>
                  <Table.Td>{[u.first_name, u.last_name].filter(Boolean).join(' ')}</Table.Td>
                  <Table.Td>{u.email}</Table.Td>
                  {organizationNames && <Table.Td>{organizationNames.get(String(u.organization)) ?? String(u.organization)}</Table.Td>}
                  <Table.Td>{ROLE_LABELS[u.role] ?? u.role}</Table.Td>
                  <Table.Td>{u.status ?? ''}</Table.Td>
                  <Table.Td>{u.enabled_2fa ? <Badge color="green" variant="light">On</Badge> : <Text size="sm" c="dimmed">Off</Text>}</Table.Td>
                  <Table.Td data-row-actions>
                    <Group gap={4} justify="flex-end" wrap="nowrap">
                      <Tooltip label="Edit">
                        <ActionIcon
                          variant="subtle"
                          component={Link}
                          to={paths.organizationUserEdit.getHref(u.organization ?? orgId ?? '', u.id)}
                          aria-label={`Edit ${u.email}`}
                        >
                          <IconPencil size={16} />
                        </ActionIcon>
                      </Tooltip>
                      <Tooltip label="Migrate entities">
                        <ActionIcon variant="subtle" aria-label={`Migrate entities of ${u.email}`} onClick={() => setMigrating(u)}>
                          <IconArrowsExchange size={16} />
                        </ActionIcon>
                      </Tooltip>
                      {String(u.id) !== String(me?.id) && <DeleteUser user={u} />}
                    </Group>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {users.hasNextPage && (
        <LoadMore onLoad={() => !users.isFetchingNextPage && users.fetchNextPage()} loading={users.isFetchingNextPage} />
      )}

      {migrating && <MigrateEntitiesModal source={migrating} onClose={() => setMigrating(null)} />}
      <Modal opened={limit !== null} onClose={() => setLimit(null)} title={LIMIT_REACHED} centered>
        <Stack>
          <Text>{limit}</Text>
          <Button onClick={() => setLimit(null)}>OK</Button>
        </Stack>
      </Modal>
    </Stack>
  );
}
