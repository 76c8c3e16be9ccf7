import { Paper, Stack, Switch, Text, Title } from '@mantine/core';

import { useUpdate2faRequired } from '@/features/organizations/api/update-2fa-required';
import type { Organization } from '@/lib/api/types';
import { notify } from '@/lib/notify';

/** The admin portal's Security tab: the organization's two-factor requirement. */
export function SecuritySettings({ organization }: { organization: Organization }) {
  const update = useUpdate2faRequired({ onSuccess: () => notify.success('2FA Status Updated Successfully!') });
  return (
    <Paper withBorder p="lg" maw={640}>
      <Stack>
        <Title order={4}>Two-step verification</Title>
        <Text size="sm" c="dimmed">
          When required, every user of {organization.name} must set up an authenticator app at their next sign-in.
        </Text>
        <Switch
          label="Require two-factor authentication"
          checked={!!organization.is_2fa_required}
          disabled={update.isPending}
          onChange={(e) => update.mutate({ id: organization.id, required: e.currentTarget.checked })}
        />
      </Stack>
    </Paper>
  );
}
