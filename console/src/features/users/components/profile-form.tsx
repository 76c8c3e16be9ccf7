import {
  Avatar,
  Button,
  Collapse,
  CopyButton,
  FileButton,
  Grid,
  Group,
  Paper,
  PasswordInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
  UnstyledButton,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconChevronDown, IconChevronRight } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';

import { DATE_FORMATS, DEFAULT_DATE_FORMAT, IMAGE_EXTENSIONS, ROLE_LABELS } from '@/config/constants';
import { useCreateApiKey } from '@/features/users/api/create-api-key';
import { uploadProfileImage } from '@/features/users/api/get-presign-url';
import { useUpdateUser } from '@/features/users/api/update-user';
import type { PhotoPath, User } from '@/lib/api/types';
import { getSession, setSession } from '@/lib/auth';
import { notify } from '@/lib/notify';
import { timeZones } from '@/lib/timezones';

export const GIT_BOTH_REQUIRED = 'Please enter both the source-control username and the access token';
export const IMAGE_TYPE_ERROR = 'Only png, jpg and jpeg images are allowed';

export type ProfileValues = {
  first_name: string;
  last_name: string;
  date_format: string;
  timezone: string;
  git_username: string;
  git_token: string;
};

/** Both source-control fields filled, or both empty (spec 000 §5). */
export function validateProfile(values: ProfileValues, hasSavedToken = false) {
  const user = values.git_username.trim();
  // The API never returns a saved token: a blank field keeps it.
  const token = values.git_token.trim() || (hasSavedToken && user ? 'saved' : '');
  const gitError = !!user !== !!token ? GIT_BOTH_REQUIRED : null;
  return {
    first_name: values.first_name.trim() ? null : 'First name is required',
    git_username: gitError && !user ? gitError : null,
    git_token: gitError && !token ? gitError : null,
  };
}

export function isAllowedImage(file: File) {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  return (IMAGE_EXTENSIONS as readonly string[]).includes(ext);
}

/** Where the browser loads a user's photo: the API's presigned `photo_url`; a stored path is
 * only usable when it is itself an address. */
export function photoUrl(user: { photo_url?: string | null; photo_path?: PhotoPath | null }): string | null {
  if (user.photo_url) return user.photo_url;
  const photo = user.photo_path;
  if (!photo) return null;
  if (typeof photo === 'string') return /^https?:\/\//.test(photo) ? photo : null;
  return photo.small || photo.original || null;
}

function ReadOnly({ label, value }: { label: string; value: string }) {
  return <TextInput label={label} value={value} readOnly disabled />;
}

/** The form's values as the server has them (the token is never sent back, so it starts blank). */
function serverValues(user: User): ProfileValues {
  return {
    first_name: user.first_name ?? '',
    last_name: user.last_name ?? '',
    date_format: user.date_format || DEFAULT_DATE_FORMAT,
    timezone: user.timezone || 'UTC',
    git_username: user.git_username ?? '',
    git_token: '',
  };
}

/**
 * Profile settings (spec 000 §2): photo, names, read-only e-mail/role/status/API token, date
 * format, time zone and an advanced section for source control (the Change Password link is the
 * page's own card, reachable without opening it).
 */
export function ProfileForm({ user, photoUpload = true }: { user: User; photoUpload?: boolean }) {
  const [advanced, setAdvanced] = useState(false);
  const [photo, setPhoto] = useState<File | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [apiKey, setApiKey] = useState(user.api_key ?? '');
  const createKey = useCreateApiKey({
    onSuccess: (data) => {
      setApiKey(data.api_key);
      const s = getSession();
      if (s.user) setSession({ user: { ...s.user, api_key: data.api_key } });
      notify.success('API token created');
    },
  });
  const preview = useMemo(() => (photo ? URL.createObjectURL(photo) : null), [photo]);
  const zones = useMemo(() => timeZones(), []);

  const server = serverValues(user);
  const serverKey = JSON.stringify(server);
  const form = useForm<ProfileValues>({
    initialValues: server,
    validate: (values) => validateProfile(values, user.has_git_token),
  });
  // A fresh copy of the profile (after 2FA, a save, a refetch) updates the fields the person has
  // not touched and keeps what they typed and which sections they opened.
  useEffect(() => {
    const fresh = JSON.parse(serverKey) as ProfileValues;
    const current = form.getValues();
    const next = { ...fresh };
    for (const field of Object.keys(fresh) as (keyof ProfileValues)[]) {
      if (form.isDirty(field)) next[field] = current[field];
    }
    form.setInitialValues(fresh);
    form.setValues(next);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- `form` is stable; the key is the input
  }, [serverKey]);
  const update = useUpdateUser({
    onSuccess: (data) => {
      const s = getSession();
      if (s.user) setSession({ user: { ...s.user, ...data.user } });
      setPhoto(null);
      notify.success('Profile updated successfully!');
    },
  });

  const submit = form.onSubmit(async (values) => {
    setSaving(true);
    try {
      let photo_path: string | undefined;
      if (photo) {
        try {
          photo_path = await uploadProfileImage(photo, user.uid);
        } catch (e) {
          notify.error(e instanceof Error ? e.message : String(e));
          return;
        }
      }
      await update
        .mutateAsync({
          id: user.id,
          user: {
            first_name: values.first_name.trim(),
            last_name: values.last_name.trim(),
            date_format: values.date_format,
            timezone: values.timezone,
            git_username: values.git_username.trim(),
            // Blank keeps the saved token, unless the username was cleared too.
            ...(values.git_token.trim() || !values.git_username.trim() ? { git_token: values.git_token.trim() } : {}),
            ...(photo_path !== undefined ? { photo_path } : {}),
          },
        })
        .catch(() => undefined); // toasted by the mutation cache
    } finally {
      setSaving(false);
    }
  });

  const roleOptions = [
    { value: 'administrator', label: 'Administrator' },
    { value: 'management', label: 'Manager' },
    ...(['administrator', 'management'].includes(user.role) ? [] : [{ value: user.role, label: ROLE_LABELS[user.role] ?? user.role }]),
  ];

  return (
    <form noValidate onSubmit={submit}>
      <Stack gap="lg">
        <Paper withBorder p="lg">
          <Group>
            <Avatar src={preview ?? photoUrl(user)} size={72} radius="xl" alt="Profile photo">
              {(user.first_name?.[0] ?? '') + (user.last_name?.[0] ?? '')}
            </Avatar>
            <Stack gap={4}>
              <FileButton
                accept="image/png,image/jpeg"
                onChange={(file) => {
                  if (!file) return;
                  if (!isAllowedImage(file)) {
                    setPhotoError(IMAGE_TYPE_ERROR);
                    return;
                  }
                  setPhotoError(null);
                  setPhoto(file);
                }}
              >
                {(props) => (
                  <Button variant="light" size="xs" disabled={!photoUpload} {...props}>
                    Upload photo
                  </Button>
                )}
              </FileButton>
              <Text size="xs" c={photoError ? 'red' : 'dimmed'} role={photoError ? 'alert' : undefined}>
                {photoError ??
                  (!photoUpload
                    ? 'Photo upload is not available on this server'
                    : photo
                      ? `${photo.name} will be uploaded when you submit`
                      : 'png, jpg or jpeg')}
              </Text>
            </Stack>
          </Group>
        </Paper>

        <Paper withBorder p="lg">
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="First name" required {...form.getInputProps('first_name')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Last name" {...form.getInputProps('last_name')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <ReadOnly label="Email" value={user.email} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Select label="Date format" data={[...DATE_FORMATS]} allowDeselect={false} {...form.getInputProps('date_format')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Select label="Time zone" data={zones} searchable limit={50} allowDeselect={false} {...form.getInputProps('timezone')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Select label="Role" data={roleOptions} value={user.role} disabled />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <ReadOnly label="Status" value={user.status ?? ''} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput
                label="API token"
                value={apiKey}
                placeholder="No API token yet"
                readOnly
                rightSectionWidth={84}
                rightSection={
                  apiKey ? (
                    <CopyButton value={apiKey} timeout={700}>
                      {({ copied, copy }) => (
                        <Button size="compact-xs" variant="subtle" onClick={copy}>
                          {copied ? 'Copied' : 'Copy'}
                        </Button>
                      )}
                    </CopyButton>
                  ) : (
                    <Button size="compact-xs" variant="subtle" loading={createKey.isPending} onClick={() => createKey.mutate(user.id)}>
                      Generate
                    </Button>
                  )
                }
              />
            </Grid.Col>
          </Grid>
        </Paper>

        <Paper withBorder p="lg">
          <UnstyledButton onClick={() => setAdvanced((v) => !v)} aria-expanded={advanced}>
            <Group gap={4}>
              {advanced ? <IconChevronDown size={16} /> : <IconChevronRight size={16} />}
              <Title order={4}>Advanced</Title>
            </Group>
          </UnstyledButton>
          <Collapse expanded={advanced}>
            <Stack mt="md">
              <Grid>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <TextInput label="Source-control username" autoComplete="off" {...form.getInputProps('git_username')} />
                </Grid.Col>
                <Grid.Col span={{ base: 12, sm: 6 }}>
                  <PasswordInput
                    label="Source-control access token"
                    autoComplete="off"
                    placeholder={user.has_git_token ? 'A token is saved; type to replace it' : undefined}
                    {...form.getInputProps('git_token')}
                  />
                </Grid.Col>
              </Grid>
            </Stack>
          </Collapse>
        </Paper>

        <Group>
          <Button
            type="submit"
            loading={saving}
            onClick={() => {
              // Errors in the collapsed section must be visible.
              const v = validateProfile(form.getValues(), user.has_git_token);
              if (v.git_username || v.git_token) setAdvanced(true);
            }}
          >
            Submit
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
