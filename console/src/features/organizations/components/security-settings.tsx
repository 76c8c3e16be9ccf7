import { Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useState } from 'react';

import { useUpdate2faRequired } from '@/features/organizations/api/update-2fa-required';
import { MailRecipientsSettings } from '@/features/organizations/components/mail-recipients-settings';
import type { Organization } from '@/lib/api/types';
import { notify } from '@/lib/notify';

/** The admin portal's Security tab: the organization's two-factor requirement and who its workflows may e-mail. */
export function SecuritySettings({ organization }: { organization: Organization }) {
  const [required, setRequired] = useState(!!organization.is_2fa_required);
  const update = useUpdate2faRequired({ onSuccess: () => notify.success('2FA Status Updated Successfully!') });
  return (
    <Stack>
      <Paper withBorder p="lg" maw={640}>
        <Stack>
          <Title order={4}>Two-step verification</Title>
          <Text size="sm" c="dimmed">
            When required, every user of {organization.name} must set up an authenticator app at their next sign-in.
          </Text>
          <Switch
            label="Require two-factor authentication"
            checked={required}
            disabled={update.isPending}
            onChange={(e) => {
              const next = e.currentTarget.checked;
              setRequired(next);
              update.mutate({ id: organization.id, required: next }, { onError: () => setRequired(!next) });
            }}
          />
        </Stack>
      </Paper>
      <MailRecipientsSettings organization={organization} />
    </Stack>
  );
}
