import { Button, Grid, Group, NumberInput, Paper, Select, Stack, Switch, Text, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';

import { ConfirmButton } from '@/components/ui/confirm-button';
import { FEATURE_KEYS, ORGANIZATION_TIERS, ROLES } from '@/config/constants';
import { type OrganizationInput, useCreateOrganization } from '@/features/organizations/api/create-organization';
import { useDeleteOrganization } from '@/features/organizations/api/delete-organization';
import { useBuckets } from '@/features/organizations/api/get-buckets';
import { useUpdate2faRequired } from '@/features/organizations/api/update-2fa-required';
import { useUpdateOrganization } from '@/features/organizations/api/update-organization';
import type { Flighting, Organization } from '@/lib/api/types';
import { notify } from '@/lib/notify';

export const ORGANIZATION_MESSAGES = {
  name: 'Name is required',
  adminEmail: 'Admin email is required',
  adminEmailInvalid: 'Email is invalid!',
  tier: 'Tier is required',
  maxSeats: 'Max seats must be a number of 0 or more',
  bucket: 'Bucket is required',
  idleMinutes: 'Idle shutdown must be a number of minutes from 0 (never) to 10080 (a week)',
} as const;

/** The longest idle time an organization may have, in minutes (a week; the API's bound). */
const MAX_IDLE_MINUTES = 7 * 24 * 60;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export type OrganizationValues = {
  name: string;
  admin_email: string;
  tier: string;
  max_seats: number | string;
  description: string;
  bucket_id: string | null;
  idle_minutes: number | string;
  allow_always_on: boolean;
};

/** Spec 001 §5: name, valid admin_email, tier, max_seats (number, min 0); bucket where required. */
export function validateOrganization(values: OrganizationValues, requireBucket: boolean) {
  const email = values.admin_email.trim();
  const seats = typeof values.max_seats === 'number' ? values.max_seats : Number.NaN;
  const idle = typeof values.idle_minutes === 'number' ? values.idle_minutes : Number.NaN;
  return {
    name: values.name.trim() ? null : ORGANIZATION_MESSAGES.name,
    admin_email: !email ? ORGANIZATION_MESSAGES.adminEmail : EMAIL_PATTERN.test(email) ? null : ORGANIZATION_MESSAGES.adminEmailInvalid,
    tier: values.tier ? null : ORGANIZATION_MESSAGES.tier,
    max_seats: Number.isFinite(seats) && seats >= 0 ? null : ORGANIZATION_MESSAGES.maxSeats,
    bucket_id: requireBucket && !values.bucket_id ? ORGANIZATION_MESSAGES.bucket : null,
    idle_minutes: Number.isInteger(idle) && idle >= 0 && idle <= MAX_IDLE_MINUTES ? null : ORGANIZATION_MESSAGES.idleMinutes,
  };
}

/**
 * A new organization starts with every feature on for every role a flag can list (a superadmin
 * is never restricted, and the API refuses `superadmin` in user_roles).
 */
export function defaultFlightings(): Flighting[] {
  return FEATURE_KEYS.map((key) => ({
    key,
    name: key.charAt(0).toUpperCase() + key.slice(1),
    active: true,
    user_roles: ROLES.filter((r) => r !== 'superadmin'),
  }));
}

type Props = {
  organization?: Organization;
  requireBucket?: boolean;
  onSaved: (org: Organization | undefined) => void;
  onDeleted?: () => void;
};

/** The organization form (create and edit), with the 2FA requirement and delete on edit. */
export function OrganizationForm({ organization, requireBucket = false, onSaved, onDeleted }: Props) {
  const buckets = useBuckets();
  const form = useForm<OrganizationValues>({
    initialValues: {
      name: organization?.name ?? '',
      admin_email: organization?.admin_email ?? '',
      tier: organization?.tier ?? 'free',
      max_seats: organization?.max_seats ?? 10,
      description: organization?.description ?? '',
      bucket_id: organization?.bucket_id != null ? String(organization.bucket_id) : null,
      idle_minutes: organization?.idle_minutes ?? 60,
      allow_always_on: organization?.allow_always_on ?? false,
    },
    validate: (v) => validateOrganization(v, requireBucket),
  });
  const create = useCreateOrganization({
    onSuccess: (data) => {
      notify.success('Organization created successfully!');
      onSaved(data.organization);
    },
  });
  const update = useUpdateOrganization({
    onSuccess: (data) => {
      notify.success('Organization updated successfully!');
      onSaved(data.organization);
    },
  });
  const del = useDeleteOrganization({
    onSuccess: () => {
      notify.success('Organization Deleted!');
      onDeleted?.();
    },
  });
  // The switch flips at once and flips back if the API refuses.
  const [required, setRequired] = useState(!!organization?.is_2fa_required);
  const twoFa = useUpdate2faRequired({ onSuccess: () => notify.success('2FA Status Updated Successfully!') });

  const submit = form.onSubmit((v) => {
    const input: OrganizationInput = {
      name: v.name.trim(),
      admin_email: v.admin_email.trim(),
      tier: v.tier,
      max_seats: Number(v.max_seats),
      description: v.description.trim(),
      bucket_id: v.bucket_id,
      idle_minutes: Number(v.idle_minutes),
      allow_always_on: v.allow_always_on,
    };
    if (organization) update.mutate({ id: organization.id, organization: input });
    else create.mutate({ ...input, flightings: defaultFlightings() });
  });

  const bucketData = (buckets.data?.buckets ?? []).map((b) => ({ value: String(b.id ?? b.name), label: b.region ? `${b.name} (${b.region})` : b.name }));

  return (
    <Stack maw={720}>
      <form noValidate onSubmit={submit}>
        <Paper withBorder p="lg">
          <Grid>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Name" required {...form.getInputProps('name')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <TextInput label="Admin email" type="email" required {...form.getInputProps('admin_email')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Select label="Tier" data={[...ORGANIZATION_TIERS]} required allowDeselect={false} {...form.getInputProps('tier')} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <NumberInput label="Max seats" min={0} allowDecimal={false} required {...form.getInputProps('max_seats')} />
            </Grid.Col>
            {(bucketData.length > 0 || requireBucket) && (
              <Grid.Col span={{ base: 12, sm: 6 }}>
                <Select label="Bucket" data={bucketData} required={requireBucket} clearable={!requireBucket} {...form.getInputProps('bucket_id')} />
              </Grid.Col>
            )}
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <NumberInput
                label="Idle shutdown (minutes)"
                description="Previews and notebooks stop, and apps sleep, after this long without use; 0 never"
                min={0}
                max={MAX_IDLE_MINUTES}
                allowDecimal={false}
                {...form.getInputProps('idle_minutes')}
              />
            </Grid.Col>
            <Grid.Col span={{ base: 12, sm: 6 }}>
              <Switch
                mt={{ sm: 'xl' }}
                label="Owners may pin apps always on"
                description="A pinned app never sleeps"
                {...form.getInputProps('allow_always_on', { type: 'checkbox' })}
              />
            </Grid.Col>
            <Grid.Col span={12}>
              <Textarea label="Description" autosize minRows={2} {...form.getInputProps('description')} />
            </Grid.Col>
          </Grid>
          <Group mt="lg">
            <Button type="submit" loading={create.isPending || update.isPending}>
              {organization ? 'Save changes' : 'Create organization'}
            </Button>
          </Group>
        </Paper>
      </form>

      {organization && (
        <Paper withBorder p="lg">
          <Stack>
            <Switch
              label="Require two-factor authentication for every user"
              checked={required}
              disabled={twoFa.isPending}
              onChange={(e) => {
                const next = e.currentTarget.checked;
                setRequired(next);
                twoFa.mutate({ id: organization.id, required: next }, { onError: () => setRequired(!next) });
              }}
            />
            <Group justify="space-between">
              <Text size="sm" c="dimmed">
                Deleting an organization removes its users' access.
              </Text>
              <ConfirmButton color="red" variant="light" question="Are you sure?" onConfirm={() => del.mutate(organization.id)} loading={del.isPending}>
                Delete organization
              </ConfirmButton>
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
