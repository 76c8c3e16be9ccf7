import { Button, Checkbox, Group, Paper, Select, Skeleton, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';

import { EmptyState } from '@/components/ui/empty-state';
import { QueryError } from '@/components/ui/query-error';
import { ROLE_LABELS } from '@/config/constants';
import { useFlighting } from '@/features/flighting/api/get-flighting';
import { useUpdateFlighting } from '@/features/flighting/api/update-flighting';
import type { FeatureKey, Flighting, Id, Role } from '@/lib/api/types';
import { notify } from '@/lib/notify';

/**
 * Roles the selector offers: the server's roles except administrator and superadmin; a
 * superadmin also gets administrator (spec 000 §6).
 */
export function selectableRoles(serverRoles: readonly Role[], superadmin: boolean): Role[] {
  const roles = serverRoles.filter((r) => r !== 'administrator' && r !== 'superadmin');
  return superadmin && serverRoles.includes('administrator') ? [...roles, 'administrator'] : roles;
}

/** Adds or removes `role` from one feature's user_roles. */
export function toggleRole(flightings: Flighting[], key: FeatureKey, role: Role, on: boolean): Flighting[] {
  return flightings.map((f) => {
    if (f.key !== key) return f;
    const roles = f.user_roles.filter((r) => r !== role);
    return { ...f, user_roles: on ? [...roles, role] : roles };
  });
}

type Props = { organizationId: Id; superadmin: boolean; serverRoles: readonly Role[] };

/** Flighting configuration: a role selector, one checkbox per active feature, Apply Changes. */
export function FlightSettings({ organizationId, superadmin, serverRoles }: Props) {
  const flighting = useFlighting(organizationId);
  // The API says which roles the caller may switch; the spec's rule is the fallback.
  const editable = flighting.data?.editable_roles;
  const roles = useMemo(
    () => (editable?.length ? editable : selectableRoles(serverRoles, superadmin)),
    [editable, serverRoles, superadmin],
  );
  const [picked, setPicked] = useState<string | null>(null);
  const role = roles.find((r) => r === picked) ?? roles[0] ?? null;
  const [draft, setDraft] = useState<Flighting[] | null>(null);
  const update = useUpdateFlighting({ onSuccess: () => notify.success('Flighting configuration updated!') });

  // Each answer from the server becomes the draft again (adjusted while rendering, not in an effect).
  const [draftOf, setDraftOf] = useState<typeof flighting.data>(undefined);
  if (flighting.data !== draftOf) {
    setDraftOf(flighting.data);
    if (flighting.data) setDraft(flighting.data.flightings);
  }

  if (flighting.isPending) return <Skeleton h={220} aria-label="Loading flighting" />;
  if (flighting.isError) return <QueryError error={flighting.error} onRetry={() => flighting.refetch()} />;

  const active = (draft ?? []).filter((f) => f.active);
  const dirty = JSON.stringify(draft) !== JSON.stringify(flighting.data.flightings);

  return (
    <Paper withBorder p="lg" maw={560}>
      <Stack>
        <Select
          label="Role"
          data={roles.map((r) => ({ value: r, label: ROLE_LABELS[r] ?? r }))}
          value={role}
          onChange={setPicked}
          allowDeselect={false}
        />
        {active.length === 0 ? (
          <EmptyState title="No active features" hint="This organization has no feature switched on." />
        ) : (
          <Stack gap="xs" role="group" aria-label="Features">
            <Text size="sm" c="dimmed">
              Features the {role ? (ROLE_LABELS[role] ?? role) : ''} role can use:
            </Text>
            {active.map((f) => (
              <Checkbox
                key={f.key}
                label={f.name}
                checked={!!role && f.user_roles.includes(role)}
                disabled={!role}
                onChange={(e) => role && setDraft(toggleRole(draft ?? [], f.key, role, e.currentTarget.checked))}
              />
            ))}
          </Stack>
        )}
        <Group>
          <Button
            onClick={() => draft && update.mutate({ organization: organizationId, flightings: draft })}
            loading={update.isPending}
            disabled={!dirty}
          >
            Apply Changes
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
