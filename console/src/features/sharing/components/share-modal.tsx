import {
  Avatar,
  Badge,
  Button,
  Checkbox,
  Divider,
  Group,
  Modal,
  NativeSelect,
  ScrollArea,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconBuilding, IconLock } from '@tabler/icons-react';
import { useState } from 'react';

import { QueryError } from '@/components/ui/query-error';
import { ACCESS_LEVEL_LABELS, ACCESS_LEVELS, DEFAULT_ACCESS_LEVEL, REVOKE_ACCESS_LABEL } from '@/config/constants';
import { useSharedWith } from '@/features/sharing/api/get-shared-with';
import { useShareEntity } from '@/features/sharing/api/share-entity';
import type { AccessLevel, Done, EntityType, ShareChange, SharedWithResponse, ShareEntry, SharePerson } from '@/lib/api/types';
import { useSession } from '@/lib/auth';
import { fieldErrors } from '@/lib/field-errors';
import { notify, useErrorToasts } from '@/lib/notify';

export const SHARE_MESSAGES = {
  self: 'Cannot share to yourself!',
  invalid: 'Email is invalid!',
  placeholder: 'Email, comma separated',
  managed: 'Managed by the resource',
} as const;

/** The share call's refusals that are about the e-mail box. */
const EMAIL_CODES = { unknown_user: 'emails', invalid_email: 'emails', share_to_self: 'emails' } as const;

const EMAIL_PATTERN = /^[^\s@,;]+@[^\s@,;]+\.[^\s@,;]+$/;
const REVOKE = 'revoke';
const NO_ACCESS = 'none';

/** The levels offered for an entity type: 'execute' is absent for datasets (spec 000 §5). */
export function levelsFor(entityType: EntityType, serverLevels?: AccessLevel[]): AccessLevel[] {
  const base = ACCESS_LEVELS.filter((l) => !(entityType === 'Dataset' && l === 'execute'));
  return serverLevels?.length ? base.filter((l) => serverLevels.includes(l)) : base;
}

/** Splits the e-mail box on commas and trims each part (spec 000 §5). */
export function splitEmails(text: string): string[] {
  return text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
}

/** The first problem with the entered addresses, checked before calling. */
export function emailProblem(emails: string[], myEmail: string | null | undefined): string | null {
  for (const email of emails) {
    if (myEmail && email.toLowerCase() === myEmail.toLowerCase()) return SHARE_MESSAGES.self;
    if (!EMAIL_PATTERN.test(email)) return SHARE_MESSAGES.invalid;
  }
  return emails.length === 0 ? SHARE_MESSAGES.invalid : null;
}

/** The user a share entry names (older entries may only carry `to_entity_id`). */
function uidOf(s: ShareEntry) {
  return s.to_entity_uid ?? s.to_entity_id;
}

function fullName(p: { first_name?: string | null; last_name?: string | null; email?: string }) {
  return [p.first_name, p.last_name].filter(Boolean).join(' ') || p.email || 'Unknown';
}

function initials(p: { first_name?: string | null; last_name?: string | null; email?: string }) {
  return ((p.first_name?.[0] ?? '') + (p.last_name?.[0] ?? '') || (p.email?.[0] ?? '?')).toUpperCase();
}

function PersonLine({ person }: { person: SharePerson | (Partial<SharePerson> & { email: string }) }) {
  return (
    <Group gap="sm" wrap="nowrap" miw={0}>
      <Avatar src={person.photo_url ?? null} radius="xl" size={32}>
        {initials(person)}
      </Avatar>
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={500} truncate>
          {fullName(person)}
        </Text>
        <Text size="xs" c="dimmed" truncate>
          {person.email}
        </Text>
      </div>
    </Group>
  );
}

function ManagedBadge({ level }: { level: AccessLevel | null }) {
  return (
    <Group gap={6} wrap="nowrap">
      {level && <Text size="sm">{ACCESS_LEVEL_LABELS[level]}</Text>}
      <Tooltip label="Declared in the resource's sharing spec (kubectl or GitOps); change it there" multiline w={240}>
        <Badge variant="light" color="grape" leftSection={<IconLock size={12} />} tabIndex={0}>
          {SHARE_MESSAGES.managed}
        </Badge>
      </Tooltip>
    </Group>
  );
}

type Props = {
  entityId: string;
  entityType: EntityType;
  /** The shared item's name, shown under the title. */
  entityLabel: string;
  opened: boolean;
  onClose: () => void;
  /** A dataset folder: shares go to PUT /v1/directory/share. */
  directoryId?: string;
};

function ShareBody({ data, entityType, entityId, directoryId }: { data: SharedWithResponse; entityType: EntityType; entityId: string; directoryId?: string }) {
  const { user } = useSession();
  const [emails, setEmails] = useState('');
  const [emailError, setEmailError] = useState<string | null>(null);
  const levels = levelsFor(entityType, data.levels);
  const [addLevel, setAddLevel] = useState<AccessLevel>(DEFAULT_ACCESS_LEVEL);
  const [overrides, setOverrides] = useState<Record<string, boolean>>({});
  const fallbackMessage = `${entityType} shared!`;
  // A success takes back the dialog's earlier error toasts: they are about a request now settled.
  const errors = useErrorToasts();
  const succeeded = (r: Done) => {
    errors.clear();
    notify.success(r.message || fallbackMessage);
  };

  const add = useShareEntity(entityType, entityId, {
    onSuccess: (r) => {
      succeeded(r);
      setEmails('');
    },
    // An address the server refuses (no such user, not an address) marks the box as well.
    onError: (e) => {
      errors.shownFor(e);
      setEmailError(fieldErrors(e, EMAIL_CODES).emails ?? null);
    },
  });
  const change = useShareEntity(entityType, entityId, { onSuccess: succeeded, onError: errors.shownFor });
  const apply = useShareEntity(entityType, entityId, {
    onSuccess: (r) => {
      succeeded(r);
      setOverrides({});
    },
    onError: errors.shownFor,
  });

  const levelOptions = levels.map((l) => ({ value: l, label: ACCESS_LEVEL_LABELS[l] }));
  const people = data.shares.filter((s) => s.to_entity_type === 'User');
  const managedUids = new Set(people.filter((s) => s.managed).map(uidOf));
  const members = data.members ?? [];
  const isSelected = (m: (typeof members)[number]) => overrides[m.uid] ?? !!m.access_level;
  const changedMembers = members.filter((m) => isSelected(m) !== !!m.access_level);
  const selectable = members.filter((m) => !managedUids.has(m.uid));
  const selectedCount = selectable.filter(isSelected).length;

  function submitEmails() {
    const list = splitEmails(emails);
    const problem = emailProblem(list, user?.email);
    if (problem) {
      errors.show(problem);
      setEmailError(problem);
      return;
    }
    add.mutate({
      directoryId,
      shares: list.map((email) => ({ share_type: 'share', email, access_level: addLevel, to_entity_type: 'User' })),
    });
  }

  function changePerson(uid: string, current: AccessLevel, value: string) {
    const shares: ShareChange[] =
      value === REVOKE
        ? [{ share_type: 'unshare', to_entity_type: 'User', to_entity_uid: uid, access_level: current }]
        : [{ share_type: 'share', to_entity_type: 'User', to_entity_uid: uid, access_level: value as AccessLevel }];
    change.mutate({ directoryId, shares });
  }

  function changeOrganization(current: AccessLevel | null, value: string) {
    const shares: ShareChange[] =
      value === NO_ACCESS
        ? [{ share_type: 'unshare', to_entity_type: 'Organization', access_level: current ?? DEFAULT_ACCESS_LEVEL }]
        : [{ share_type: 'share', to_entity_type: 'Organization', access_level: value as AccessLevel }];
    change.mutate({ directoryId, shares });
  }

  function applyMembers() {
    const shares: ShareChange[] = changedMembers.map((m) =>
      isSelected(m)
        ? { share_type: 'share', to_entity_type: 'User', to_entity_uid: m.uid, access_level: addLevel }
        : { share_type: 'unshare', to_entity_type: 'User', to_entity_uid: m.uid, access_level: m.access_level ?? DEFAULT_ACCESS_LEVEL },
    );
    apply.mutate({ directoryId, shares });
  }

  function selectAll(checked: boolean) {
    setOverrides(Object.fromEntries(selectable.map((m) => [m.uid, checked])));
  }

  const org = data.organization;

  return (
    <Stack gap="md">
      {data.can_share ? (
        <Group gap="xs" align="flex-start" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            placeholder={SHARE_MESSAGES.placeholder}
            aria-label="Emails"
            value={emails}
            error={emailError}
            onChange={(e) => {
              setEmails(e.currentTarget.value);
              setEmailError(null);
            }}
            onKeyDown={(e) => {
              if (e.key === 'Enter' && emails.trim()) {
                e.preventDefault();
                submitEmails();
              }
            }}
            data-autofocus
          />
          <NativeSelect aria-label="Access level" value={addLevel} onChange={(e) => setAddLevel(e.currentTarget.value as AccessLevel)} data={levelOptions} w={120} />
          <Button onClick={submitEmails} disabled={!emails.trim()} loading={add.isPending}>
            add
          </Button>
        </Group>
      ) : (
        <Text size="sm" c="dimmed">
          Only editors can share this {entityType.toLowerCase()}.
        </Text>
      )}

      <div>
        <Title order={5} mb="xs">
          People with access
        </Title>
        <Stack gap="xs" role="list" aria-label="People with access">
          {data.owner && (
            <Group justify="space-between" wrap="nowrap" role="listitem">
              <PersonLine person={data.owner} />
              <Text size="sm" c="dimmed">
                Owner
              </Text>
            </Group>
          )}
          {people.map((s) => (
            <Group key={s.id} justify="space-between" wrap="nowrap" role="listitem" data-testid="share-person" data-email={s.email}>
              <PersonLine person={s} />
              {s.managed ? (
                <ManagedBadge level={s.access_level} />
              ) : data.can_share ? (
                <NativeSelect
                  aria-label={`Access for ${s.email}`}
                  value={s.access_level}
                  disabled={change.isPending}
                  onChange={(e) => changePerson(uidOf(s), s.access_level, e.currentTarget.value)}
                  data={[...levelOptions, { value: REVOKE, label: REVOKE_ACCESS_LABEL }]}
                  w={150}
                />
              ) : (
                <Text size="sm">{ACCESS_LEVEL_LABELS[s.access_level]}</Text>
              )}
            </Group>
          ))}
          {!data.owner && people.length === 0 && (
            <Text size="sm" c="dimmed">
              Nobody else has access yet.
            </Text>
          )}
        </Stack>
      </div>

      {org && (
        <Group justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Avatar radius="xl" size={32} color="indigo">
              <IconBuilding size={18} />
            </Avatar>
            <div>
              <Text size="sm" fw={500}>
                Everyone at {org.name}
              </Text>
              <Text size="xs" c="dimmed">
                Organization
              </Text>
            </div>
          </Group>
          {org.managed ? (
            <ManagedBadge level={org.access_level ?? null} />
          ) : data.can_share ? (
            <NativeSelect
              aria-label="Organization access"
              value={org.access_level ?? NO_ACCESS}
              disabled={change.isPending}
              onChange={(e) => changeOrganization(org.access_level ?? null, e.currentTarget.value)}
              data={[{ value: NO_ACCESS, label: 'No access' }, ...levelOptions]}
              w={150}
            />
          ) : (
            <Text size="sm">{org.access_level ? ACCESS_LEVEL_LABELS[org.access_level] : 'No access'}</Text>
          )}
        </Group>
      )}

      {data.can_share && (
        <>
          <Divider />
          <div>
            <Group justify="space-between" mb="xs">
              <Title order={5}>Select from Organization</Title>
              <Checkbox
                label="Select all"
                disabled={selectable.length === 0}
                checked={selectable.length > 0 && selectedCount === selectable.length}
                indeterminate={selectedCount > 0 && selectedCount < selectable.length}
                onChange={(e) => selectAll(e.currentTarget.checked)}
              />
            </Group>
            {members.length === 0 && (
              <Text size="sm" c="dimmed">
                {org ? `Nobody else at ${org.name} to pick yet.` : 'Nobody else in your organization to pick yet.'}
              </Text>
            )}
            <ScrollArea.Autosize mah={200}>
              <Stack gap={6} role="group" aria-label="Organization members">
                {members.map((m) => (
                  <Checkbox
                    key={m.uid}
                    label={`${fullName(m)} (${m.email})`}
                    checked={isSelected(m)}
                    disabled={managedUids.has(m.uid)}
                    onChange={(e) => {
                      const checked = e.currentTarget.checked;
                      setOverrides((o) => ({ ...o, [m.uid]: checked }));
                    }}
                  />
                ))}
              </Stack>
            </ScrollArea.Autosize>
            <Group justify="space-between" mt="xs">
              <Text size="xs" c="dimmed">
                New members get {ACCESS_LEVEL_LABELS[addLevel]} access (the level chosen above).
              </Text>
              <Button size="xs" variant="light" onClick={applyMembers} disabled={changedMembers.length === 0} loading={apply.isPending}>
                Apply
              </Button>
            </Group>
          </div>
        </>
      )}
    </Stack>
  );
}

/**
 * The Share dialog (spec 000 §2, §5), for any entity type: add people by e-mail with an access
 * level, change or revoke each person's access, the organization's access, and a pick from the
 * organization's members.
 */
export function ShareModal({ entityId, entityType, entityLabel, opened, onClose, directoryId }: Props) {
  const shared = useSharedWith(entityType, entityId, { enabled: opened });
  return (
    <Modal.Root opened={opened} onClose={onClose} size="lg" centered>
      <Modal.Overlay />
      <Modal.Content>
        {/* The name sits in the header with the title, so scrolling never hides it under the header. */}
        <Modal.Header>
          <Stack gap={2} miw={0} style={{ flex: 1 }}>
            <Modal.Title fw={600}>Share</Modal.Title>
            <Text size="sm" c="dimmed" truncate="end" title={entityLabel} data-testid="share-subtitle">
              {entityLabel}
            </Text>
          </Stack>
          <Modal.CloseButton />
        </Modal.Header>
        <Modal.Body>
          <Stack gap="md">
            {shared.isPending && (
              <Stack gap="xs" role="status" aria-label="Loading access">
                <Skeleton h={36} />
                <Skeleton h={36} />
                <Skeleton h={36} />
              </Stack>
            )}
            {shared.isError && <QueryError error={shared.error} onRetry={() => shared.refetch()} />}
            {shared.data && <ShareBody key={`${entityType}:${entityId}`} data={shared.data} entityType={entityType} entityId={entityId} directoryId={directoryId} />}
            <Group justify="flex-end">
              <Button onClick={onClose}>Done</Button>
            </Group>
          </Stack>
        </Modal.Body>
      </Modal.Content>
    </Modal.Root>
  );
}
