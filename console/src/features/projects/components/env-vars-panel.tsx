import { ActionIcon, Alert, Button, Group, PasswordInput, ScrollArea, Skeleton, Stack, Table, Text, TextInput, Tooltip } from '@mantine/core';
import { IconCheck, IconEye, IconEyeOff, IconPencil, IconTrash, IconX } from '@tabler/icons-react';
import { useEffect, useState } from 'react';

import { QueryError } from '@/components/ui/query-error';
import { ERROR_TOAST_DURATION_MS } from '@/config/constants';
import { useCreateEnvVar } from '@/features/projects/api/create-env-var';
import { useDeleteEnvVar } from '@/features/projects/api/delete-env-var';
import { useEnvVars } from '@/features/projects/api/get-env-vars';
import { useUpdateEnvVar } from '@/features/projects/api/update-env-var';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';
import type { EnvVar } from '@/lib/api/types';

/** A message that goes away by itself after `ms` (the spec's 5 s error). */
function useFleetingError(ms: number) {
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!error) return;
    const t = setTimeout(() => setError(null), ms);
    return () => clearTimeout(t);
  }, [error, ms]);
  return [error, setError] as const;
}

function ValueCell({ variable, editable, projectId }: { variable: EnvVar; editable: boolean; projectId: string }) {
  const [shown, setShown] = useState(false);
  const [draft, setDraft] = useState<string | null>(null);
  const update = useUpdateEnvVar(projectId, { onSuccess: () => setDraft(null) });
  if (variable.value === null) {
    return (
      <Text size="xs" c="dimmed" fs="italic">
        hidden
      </Text>
    );
  }
  if (draft !== null) {
    return (
      <Group gap={4} wrap="nowrap">
        <TextInput
          size="xs"
          aria-label={`New value of ${variable.key}`}
          value={draft}
          onChange={(e) => setDraft(e.currentTarget.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter' && draft) update.mutate({ id: variable.id, value: draft });
          }}
          style={{ flex: 1 }}
          data-autofocus
        />
        <ActionIcon size="sm" variant="subtle" aria-label={`Save ${variable.key}`} disabled={!draft} loading={update.isPending} onClick={() => update.mutate({ id: variable.id, value: draft })}>
          <IconCheck size={14} />
        </ActionIcon>
        <ActionIcon size="sm" variant="subtle" color="gray" aria-label="Cancel" onClick={() => setDraft(null)}>
          <IconX size={14} />
        </ActionIcon>
      </Group>
    );
  }
  return (
    <Group gap={4} wrap="nowrap">
      <Text size="xs" ff="monospace" style={{ wordBreak: 'break-all' }}>
        {shown ? variable.value : '••••••••'}
      </Text>
      <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`${shown ? 'Hide' : 'Show'} ${variable.key}`} onClick={() => setShown((s) => !s)}>
        {shown ? <IconEyeOff size={14} /> : <IconEye size={14} />}
      </ActionIcon>
      {editable && (
        <ActionIcon size="sm" variant="subtle" color="gray" aria-label={`Change ${variable.key}`} onClick={() => setDraft(variable.value ?? '')}>
          <IconPencil size={14} />
        </ActionIcon>
      )}
    </Group>
  );
}

/**
 * The env vars panel (spec 001 §2, §5; contract `/v2/projects/envvar`): the project's variables,
 * which reach the container on its next start. Editors add (key and value, else 'Please add
 * valid inputs' for 5 s), change and delete them; the API sends no values to other levels.
 */
export function EnvVarsPanel({ projectId, editable }: { projectId: string; editable: boolean }) {
  const vars = useEnvVars(projectId);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [error, setError] = useFleetingError(ERROR_TOAST_DURATION_MS);
  const create = useCreateEnvVar(projectId, {
    onSuccess: () => {
      setKey('');
      setValue('');
    },
  });
  const remove = useDeleteEnvVar(projectId);
  const list = vars.data?.envVariables ?? [];

  function add(e: React.FormEvent) {
    e.preventDefault();
    if (!key.trim() || !value.trim()) {
      setError(PROJECT_MESSAGES.invalidEnvVar);
      return;
    }
    setError(null);
    create.mutate({ key: key.trim(), value }, { onError: (err) => setError(err.message) });
  }

  return (
    <Stack gap="xs" h="100%">
      <Text size="xs" c="dimmed">
        Variables reach the container on its next start.
      </Text>
      {vars.isPending && <Skeleton h={60} role="status" aria-label="Loading variables" />}
      {vars.isError && <QueryError error={vars.error} onRetry={() => void vars.refetch()} />}
      {vars.isSuccess && list.length === 0 && (
        <Text size="xs" c="dimmed">
          No variables yet.
        </Text>
      )}
      {list.length > 0 && (
        <ScrollArea style={{ flex: 1 }} type="auto">
          <Table aria-label="Environment variables" verticalSpacing={4} fz="xs">
            <Table.Tbody>
              {list.map((v) => (
                <Table.Tr key={v.id}>
                  <Table.Td ff="monospace">{v.key}</Table.Td>
                  <Table.Td>
                    <ValueCell variable={v} editable={editable} projectId={projectId} />
                  </Table.Td>
                  {editable && (
                    <Table.Td w={32}>
                      <Tooltip label="Delete">
                        <ActionIcon size="sm" variant="subtle" color="red" aria-label={`Delete ${v.key}`} onClick={() => remove.mutate(v.id)}>
                          <IconTrash size={14} />
                        </ActionIcon>
                      </Tooltip>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea>
      )}
      {editable && (
        <form noValidate onSubmit={add}>
          <Stack gap={6}>
            <Group gap={6} grow wrap="nowrap" align="flex-start">
              <TextInput size="xs" label="Key" placeholder="API_URL" value={key} onChange={(e) => setKey(e.currentTarget.value)} />
              <PasswordInput size="xs" label="Value" value={value} onChange={(e) => setValue(e.currentTarget.value)} />
            </Group>
            <Group justify="flex-end">
              <Button size="xs" type="submit" loading={create.isPending}>
                Add
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      {error && (
        <Alert color="red" variant="light" role="alert" py={6}>
          {error}
        </Alert>
      )}
    </Stack>
  );
}
