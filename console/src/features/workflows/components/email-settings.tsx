import { Checkbox, Group, Stack, Switch, TagsInput, Text } from '@mantine/core';
import { useState } from 'react';

import { type EmailSettings as Settings, isEmail } from '@/features/workflows/utils/design';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';

/**
 * E-mail notifications (spec 001 §3, §6): on or off, the addresses, on success and/or failure.
 * Only owners and editors change them (`readOnly` otherwise).
 */
export function EmailSettings({ value, readOnly, onChange }: { value: Settings; readOnly: boolean; onChange: (s: Settings) => void }) {
  const [error, setError] = useState<string>();
  return (
    <Stack gap="xs" data-testid="email-settings">
      <Switch label="E-mail notifications" checked={value.enabled} disabled={readOnly} onChange={(e) => onChange({ ...value, enabled: e.currentTarget.checked })} />
      <TagsInput
        label="Addresses"
        placeholder="name@example.com, then Enter"
        value={value.list}
        disabled={readOnly || !value.enabled}
        error={error ?? (value.enabled && value.list.length === 0 ? WORKFLOW_MESSAGES.emailRequired : undefined)}
        onChange={(list) => {
          const bad = list.find((a) => !isEmail(a));
          setError(bad ? WORKFLOW_MESSAGES.invalidEmail : undefined);
          onChange({ ...value, list: list.filter(isEmail).map((a) => a.trim()) });
        }}
      />
      {/* A run is reported on success, on failure or both: the last ticked box stays ticked. */}
      <Group>
        <Text size="sm">Send on</Text>
        <Checkbox
          label="Success"
          checked={value.onSuccess}
          disabled={readOnly || !value.enabled || (value.onSuccess && !value.onFailure)}
          onChange={(e) => onChange({ ...value, onSuccess: e.currentTarget.checked })}
        />
        <Checkbox
          label="Failure"
          checked={value.onFailure}
          disabled={readOnly || !value.enabled || (value.onFailure && !value.onSuccess)}
          onChange={(e) => onChange({ ...value, onFailure: e.currentTarget.checked })}
        />
      </Group>
    </Stack>
  );
}
