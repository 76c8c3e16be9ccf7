import { Modal, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { ModalActions } from '@/components/ui/modal-actions';
import { paths } from '@/config/paths';
import { useCreateProject } from '@/features/projects/api/create-project';
import { LanguageField } from '@/features/projects/components/create-project-modal';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';
import { parseRepoUrl, projectNameError } from '@/features/projects/utils/names';
import type { Language } from '@/lib/api/types';
import { notify } from '@/lib/notify';

/**
 * 'import project' (spec 001 §2, §5): the HTTPS address of a git repository; the project name
 * and repository author come from it. Enter submits. The API clones it with the user's saved git
 * token (the list asks for one first when none is saved).
 */
export function ImportProjectModal({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const [url, setUrl] = useState('');
  const [language, setLanguage] = useState<Language>('python');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateProject({
    onSuccess: (r) => {
      notify.success(PROJECT_MESSAGES.created);
      onClose();
      navigate(paths.project.getHref(r.project.id));
    },
  });
  const repo = parseRepoUrl(url);

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const problem = !repo ? PROJECT_MESSAGES.invalidRepoUrl : projectNameError(repo.name);
    setError(problem);
    if (problem || !repo) return;
    create.mutate({ name: repo.name, description: '', language, repo_url: repo.url });
  }

  return (
    <Modal opened onClose={onClose} title="Import project" size="lg" centered>
      <form noValidate onSubmit={submit}>
        <Stack>
          <TextInput
            label="Repository URL"
            placeholder="https://github.com/owner/repo"
            required
            data-autofocus
            value={url}
            error={error}
            onChange={(e) => {
              setUrl(e.currentTarget.value);
              setError(null);
            }}
          />
          {repo && (
            <Text size="sm" c="dimmed" data-testid="derived-repo">
              Name: <b>{repo.name}</b> · Repository author: <b>{repo.author}</b>
            </Text>
          )}
          <LanguageField value={language} onChange={setLanguage} />
          <ModalActions error={create.error?.message} submitLabel="Import" loading={create.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
