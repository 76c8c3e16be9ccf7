import { Modal, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';

import { ModalActions } from '@/components/ui/modal-actions';
import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { MIGRATION_ENTITY_TYPES, type MigrationEntityType, useMigrateEntities } from '@/features/users/api/migrate-entities';
import { useUsers } from '@/features/users/api/get-users';
import type { User } from '@/lib/api/types';
import { notify } from '@/lib/notify';

export const MIGRATE_MESSAGES = {
  required: 'Please fill in all fields',
  failed: 'Failed to migrate entities',
} as const;

function fullName(u: User) {
  return [u.first_name, u.last_name].filter(Boolean).join(' ');
}

function optionOf(u: User) {
  const name = fullName(u);
  return { value: u.uid, label: name ? `${name} (${u.email})` : u.email };
}

/**
 * 'Migrate entities' (spec 001 §5): every asset of one kind owned by `source` moves to another
 * user of the same organization. The destination is searched on the server as it is typed.
 */
export function MigrateEntitiesModal({ source, onClose }: { source: User; onClose: () => void }) {
  const [entityType, setEntityType] = useState<MigrationEntityType | null>(null);
  const [destination, setDestination] = useState<User | null>(null);
  const [search, setSearch] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const searching = destination && search === optionOf(destination).label ? '' : search.trim();
  const [debounced] = useDebouncedValue(searching, SEARCH_DEBOUNCE_MS);
  const users = useUsers({ organization: source.organization ?? undefined, searchTerm: debounced || undefined });
  const candidates = (users.data?.pages.flatMap((p) => p.users) ?? []).filter((u) => u.uid !== source.uid);
  const byUid = new Map(candidates.map((u) => [u.uid, u]));
  if (destination) byUid.set(destination.uid, destination);
  const migrate = useMigrateEntities({
    onSuccess: (migrated) => {
      const kind = MIGRATION_ENTITY_TYPES.find((t) => t.value === entityType);
      const noun = migrated === 1 ? (kind?.one ?? 'asset') : (kind?.many ?? 'assets');
      notify.success(`${migrated} ${noun} moved to ${destination ? fullName(destination) || destination.email : 'the new owner'}`);
      onClose();
    },
  });

  function submit() {
    if (!entityType || !destination) {
      setProblem(MIGRATE_MESSAGES.required);
      return;
    }
    setProblem(null);
    migrate.mutate(
      { entityType, sourceUserId: source.uid, destinationUserId: destination.uid },
      {
        onError: (e) => {
          notify.error(MIGRATE_MESSAGES.failed);
          setProblem(`${MIGRATE_MESSAGES.failed}: ${e instanceof Error ? e.message : String(e)}`);
        },
      },
    );
  }

  return (
    <Modal opened onClose={onClose} title="Migrate entities" centered>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        <Stack>
          <Text size="sm">
            Moves the ownership of every asset of the chosen kind owned by <b>{fullName(source) || source.email}</b> to another user of the
            organization. Shares stay as they are.
          </Text>
          <Select
            label="Entity type"
            placeholder="Choose a kind"
            data={MIGRATION_ENTITY_TYPES.map((t) => ({ value: t.value, label: t.label }))}
            value={entityType}
            onChange={(v) => {
              setEntityType(v as MigrationEntityType | null);
              setProblem(null);
            }}
            allowDeselect={false}
          />
          <Select
            label="Destination user"
            placeholder="Search by name or e-mail"
            searchable
            filter={({ options }) => options}
            data={[...byUid.values()].map(optionOf)}
            value={destination?.uid ?? null}
            searchValue={search}
            onSearchChange={setSearch}
            onChange={(uid) => {
              setDestination(uid ? (byUid.get(uid) ?? null) : null);
              setProblem(null);
            }}
            nothingFoundMessage={users.isFetching ? 'Searching…' : 'No other user matches'}
          />
          <ModalActions error={problem} submitLabel="Migrate" loading={migrate.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
