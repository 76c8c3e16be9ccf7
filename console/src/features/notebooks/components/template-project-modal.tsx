import { Badge, Group, Modal, Radio, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';

import { ModalActions } from '@/components/ui/modal-actions';
import { QueryError } from '@/components/ui/query-error';
import { paths } from '@/config/paths';
import { useCreateTemplateProject } from '@/features/notebooks/api/create-template-project';
import { useProjectTemplates } from '@/features/notebooks/api/get-project-templates';
import { NOTEBOOK_MESSAGES } from '@/features/notebooks/utils/messages';
import { legacyProjectNameError } from '@/features/notebooks/utils/names';
import { notify } from '@/lib/notify';

/**
 * 'Create from template' (spec 001 §7 "POST /v1/projects/ludisproject"): one of the templates
 * (GET /v1/projects/ludisproject, each with its notebooks and the sample datasets it reads) and
 * an optional name (the template's otherwise). Opens the new project.
 */
export function TemplateProjectModal({ onClose }: { onClose: () => void }) {
  const navigate = useNavigate();
  const templates = useProjectTemplates();
  const [template, setTemplate] = useState<string | null>(null);
  const [name, setName] = useState('');
  const [errors, setErrors] = useState<{ template?: string | null; name?: string | null }>({});
  const create = useCreateTemplateProject({
    onSuccess: (r) => {
      notify.success(r.message || NOTEBOOK_MESSAGES.projectCreated);
      onClose();
      navigate(paths.legacyProject.getHref(r.project.id));
    },
  });

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const next = {
      template: template ? null : NOTEBOOK_MESSAGES.chooseTemplate,
      name: name.trim() ? legacyProjectNameError(name) : null,
    };
    setErrors(next);
    if (next.template || next.name || !template) return;
    create.mutate({ template, ...(name.trim() ? { name: name.trim() } : {}) });
  }

  const list = templates.data?.templates ?? [];

  return (
    <Modal opened onClose={onClose} title="Create from template" size="lg" centered>
      <form noValidate onSubmit={submit}>
        <Stack>
          {templates.isPending && (
            <Stack gap="xs" role="status" aria-label="Loading templates">
              <Skeleton h={56} />
              <Skeleton h={56} />
            </Stack>
          )}
          {templates.isError && <QueryError error={templates.error} onRetry={() => templates.refetch()} />}
          {templates.isSuccess && list.length === 0 && <Text c="dimmed">No templates are available.</Text>}
          {list.length > 0 && (
            <Radio.Group
              label="Template"
              required
              value={template}
              error={errors.template}
              onChange={(v) => {
                setTemplate(v);
                setErrors((x) => ({ ...x, template: null }));
              }}
            >
              <Stack gap="xs" mt="xs">
                {list.map((t) => (
                  <Radio.Card key={t.id} value={t.id} p="sm" radius="md" aria-label={t.name}>
                    <Group wrap="nowrap" align="flex-start">
                      <Radio.Indicator />
                      <Stack gap={2}>
                        <Group gap="xs">
                          <Text fw={600}>{t.name}</Text>
                          <Badge size="xs" variant="light">
                            {t.language === 'r' ? 'R' : 'Python'}
                          </Badge>
                        </Group>
                        {t.description && (
                          <Text size="sm" c="dimmed">
                            {t.description}
                          </Text>
                        )}
                        <Text size="xs" c="dimmed">
                          Notebooks: {t.notebooks.join(', ') || 'none'}
                          {t.datasets.length > 0 && ` · Datasets: ${t.datasets.join(', ')}`}
                        </Text>
                      </Stack>
                    </Group>
                  </Radio.Card>
                ))}
              </Stack>
            </Radio.Group>
          )}
          <TextInput
            label="Project name"
            description="Leave empty to use the template's name."
            value={name}
            error={errors.name}
            onChange={(e) => {
              setName(e.currentTarget.value);
              setErrors((x) => ({ ...x, name: null }));
            }}
          />
          <ModalActions error={create.error?.message} submitLabel="Create" loading={create.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
