import { Button, Group, Paper, Skeleton, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState } from 'react';

import { QueryError } from '@/components/ui/query-error';
import { useMailRecipients, useSetMailRecipients } from '@/features/organizations/api/mail-recipients';
import type { Organization } from '@/lib/api/types';
import { notify } from '@/lib/notify';

/** Pure: the addresses of the text area, one per line (or separated by commas or spaces). */
export function addressesOf(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((a) => a.trim())
    .filter((a) => a.length > 0);
}

/**
 * The admin portal's Security tab, workflow e-mail: workflows notify the organization's members,
 * and the addresses outside it that its administrators list here (one per line).
 */
export function MailRecipientsSettings({ organization }: { organization: Organization }) {
  const current = useMailRecipients(organization.id);
  const [text, setText] = useState<string | null>(null);
  const save = useSetMailRecipients(organization.id, {
    onSuccess: () => {
      setText(null);
      notify.success('Notification addresses saved');
    },
  });
  const shown = text ?? current.data?.addresses.join('\n') ?? '';
  return (
    <Paper withBorder p="lg" maw={640}>
      <Stack>
        <Title order={4}>Workflow e-mail</Title>
        <Text size="sm" c="dimmed">
          Workflows of {organization.name} notify its members only. Addresses outside it that workflows may notify too, one per line:
        </Text>
        {current.isPending && <Skeleton h={80} />}
        {current.isError && <QueryError error={current.error} onRetry={() => current.refetch()} />}
        {current.data && (
          <>
            <Textarea
              label="Other addresses workflows may notify"
              placeholder="ops@partner.example"
              autosize
              minRows={3}
              value={shown}
              onChange={(e) => setText(e.currentTarget.value)}
            />
            <Group>
              <Button
                loading={save.isPending}
                disabled={text === null}
                onClick={() => save.mutate(addressesOf(shown))}
              >
                Save addresses
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Paper>
  );
}
