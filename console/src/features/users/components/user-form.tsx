import { Button, Grid, Group, Modal, Paper, PasswordInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMemo, useState } from 'react';

import { MIN_PASSWORD_LENGTH, ROLE_LABELS } from '@/config/constants';
import { ApiError } from '@/lib/api-client';
import { type UserInput, useCreateUser } from '@/features/users/api/create-user';
import { useUpdateUser } from '@/features/users/api/update-user';
import type { Id, Role, User } from '@/lib/api/types';
import { isSuperadmin } from '@/lib/auth';
import { notify } from '@/lib/notify';
import { timeZones } from '@/lib/timezones';

export const USER_MESSAGES = {
  firstName: 'First name is required',
  lastName: 'Last name is required',
  role: 'Role is required',
  timezone: 'Time zone is required',
  email: 'Email is required',
  emailInvalid: 'Email is invalid!',
  password: 'Password is required',
  passwordShort: 'Password must be at least 6 characters long',
  organization: 'Organization is required',
} as const;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type UserFormValues = {
  organization: string;
  first_name: string;
  last_name: string;
  email: string;
  /** Empty until one is chosen (validation asks for one). */
  role: Role | '';
  timezone: string;
  password: string;
};

/** Spec 001 §5: names, role, time zone required; e-mail required and valid; password on create. */
export function validateUser(values: UserFormValues, mode: 'create' | 'edit', pickOrganization = false) {
  const email = values.email.trim();
  return {
    organization: pickOrganization && !values.organization ? USER_MESSAGES.organization : null,
    first_name: values.first_name.trim() ? null : USER_MESSAGES.firstName,
    last_name: values.last_name.trim() ? null : USER_MESSAGES.lastName,
    role: values.role ? null : USER_MESSAGES.role,
    timezone: values.timezone ? null : USER_MESSAGES.timezone,
    email: !email ? USER_MESSAGES.email : EMAIL_PATTERN.test(email) ? null : USER_MESSAGES.emailInvalid,
    password:
      mode === 'create' && !values.password
        ? USER_MESSAGES.password
        : values.password && values.password.length < MIN_PASSWORD_LENGTH
          ? USER_MESSAGES.passwordShort
          : null,
  };
}

/** Roles a user may assign: superadmin only by superadmins. */
export function assignableRoles(me: User | null) {
  const roles = ['developer', 'management', 'administrator', ...(isSuperadmin(me) ? ['superadmin'] : [])];
  return roles.map((r) => ({ value: r, label: ROLE_LABELS[r] ?? r }));
}

/** The password field shows on create; on edit only for a superadmin, or an administrator editing a non-superadmin. */
export function showsPassword(mode: 'create' | 'edit', me: User | null, target: User | undefined) {
  if (mode === 'create') return true;
  if (isSuperadmin(me)) return true;
  return me?.role === 'administrator' && target?.role !== 'superadmin';
}

function limitMessage(error: unknown): string | null {
  if (!(error instanceof ApiError)) return null;
  const body = error.body as { limitExceded?: boolean } | null;
  if (body?.limitExceded || error.code === 'limit_exceeded' || error.code === 'seat_limit_reached') return error.message;
  return null;
}

type Props = {
  mode: 'create' | 'edit';
  organizationId: Id;
  me: User | null;
  user?: User;
  onDone: () => void;
  /** Shown (and required) when the caller picks the organization: a superadmin in the admin portal. */
  organizationOptions?: { value: string; label: string }[];
};

/** The user form of /organizations/{id}/users/new and /users/edit/{userId}. */
export function UserForm({ mode, organizationId, me, user, onDone, organizationOptions }: Props) {
  const [limit, setLimit] = useState<string | null>(null);
  const zones = useMemo(() => timeZones(), []);
  const form = useForm<UserFormValues>({
    initialValues: {
      organization: String(organizationId),
      first_name: user?.first_name ?? '',
      last_name: user?.last_name ?? '',
      email: user?.email ?? '',
      role: user?.role ?? 'developer',
      timezone: user?.timezone ?? 'UTC',
      password: '',
    },
    validate: (values) => validateUser(values, mode, !!organizationOptions),
  });
  const create = useCreateUser({
    onSuccess: (data) => {
      if (data.limitExceded) return setLimit(data.message ?? 'Your organization has no seats left.');
      notify.success('User created successfully!');
      onDone();
    },
  });
  const update = useUpdateUser({
    onSuccess: () => {
      notify.success('User Updated successfully!');
      onDone();
    },
  });
  const withPassword = showsPassword(mode, me, user);

  const submit = form.onSubmit((values) => {
    const base = {
      first_name: values.first_name.trim(),
      last_name: values.last_name.trim(),
      email: values.email.trim(),
      role: values.role || undefined,
      timezone: values.timezone,
    };
    if (mode === 'create') {
      const input: UserInput = { ...base, password: values.password, organization: values.organization || String(organizationId) };
      create.mutate(input, {
        onError: (e) => {
          const msg = limitMessage(e);
          if (msg) setLimit(msg);
          else notify.error(e.message);
        },
      });
    } else if (user) {
      // A blank password is dropped on edit (spec 001 §5).
      update.mutate({ id: user.id, user: { ...base, ...(values.password ? { password: values.password } : {}) } });
    }
  });

  const roleData = assignableRoles(me);
  if (user && !roleData.some((r) => r.value === user.role)) roleData.push({ value: user.role, label: ROLE_LABELS[user.role] ?? user.role });

  return (
    <>
      <form noValidate onSubmit={submit}>
        <Paper withBorder p="lg" maw={720}>
          <Grid>
            {organizationOptions && (
              <Grid.Col span={12}>
                <Select label="Organization" data={organizationOptions} required searchable allowDeselect={false} {...form.getInputProps('organization')} />
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="First name" required {...form.getInputProps('first_name')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Last name" required {...form.getInputProps('last_name')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Email" type="email" required {...form.getInputProps('email')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Select label="Role" data={roleData} required allowDeselect={false} disabled={user?.role === 'superadmin' && !isSuperadmin(me)} {...form.getInputProps('role')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Select label="Time zone" data={zones} searchable limit={50} required allowDeselect={false} {...form.getInputProps('timezone')} />
            </Grid.Col>
            {withPassword && (
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <PasswordInput
                  label="Password"
                  required={mode === 'create'}
                  description={mode === 'edit' ? 'Leave blank to keep the current password' : undefined}
                  autoComplete="new-password"
                  {...form.getInputProps('password')}
                />
              </Grid.Col>
            )}
          </Grid>
          <Group mt="lg">
            <Button type="submit" loading={create.isPending || update.isPending}>
              {mode === 'create' ? 'Create user' : 'Save changes'}
            </Button>
            <Button variant="default" onClick={onDone}>
              Cancel
            </Button>
          </Group>
        </Paper>
      </form>
      <Modal opened={limit !== null} onClose={() => setLimit(null)} title="Limit Reached" centered>
        <Stack>
          <Text>{limit}</Text>
          <Button onClick={() => setLimit(null)}>OK</Button>
        </Stack>
      </Modal>
    </>
  );
}
