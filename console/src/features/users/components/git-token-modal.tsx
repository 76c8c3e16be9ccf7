import { Alert, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';

import { useUpdateGitDetail } from '@/features/users/api/update-git-detail';
import { getSession, setSession } from '@/lib/auth';

export const GIT_DETAILS_REQUIRED = 'Please enter both the Git username and the personal access token';

/**
 * The dialog that asks for the Git username and personal access token before a project is
 * imported from a remote repository (spec 001 §2), saved with PUT /v1/git_detail (encrypted at
 * rest by the API). Whitespace-only input counts as empty (spec 001 §5).
 */
export function GitTokenModal({ opened, onClose, onSaved }: { opened: boolean; onClose: () => void; onSaved: () => void }) {
  const [username, setUsername] = useState(() => getSession().user?.git_username ?? '');
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const save = useUpdateGitDetail();

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const detail = { git_username: username.trim(), git_token: token.trim() };
    if (!detail.git_username || !detail.git_token) {
      setError(GIT_DETAILS_REQUIRED);
      return;
    }
    setError(null);
    save.mutate(detail, {
      onSuccess: () => {
        const user = getSession().user;
        if (user) setSession({ user: { ...user, git_username: detail.git_username, has_git_token: true } });
        setToken('');
        onSaved();
      },
    });
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Connect your git account" centered>
      <form noValidate onSubmit={submit}>
        <Stack>
          <Text size="sm" c="dimmed">
            Importing a repository needs your git username and a personal access token that can read it (and push, to commit
            from the editor). You can change them later in your profile settings.
          </Text>
          <TextInput label="Git username" required autoComplete="off" data-autofocus value={username} onChange={(e) => setUsername(e.currentTarget.value)} />
          <PasswordInput label="Personal access token" required autoComplete="off" value={token} onChange={(e) => setToken(e.currentTarget.value)} />
          {error && (
            <Alert color="red" variant="light" role="alert">
              {error}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              Save and continue
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
