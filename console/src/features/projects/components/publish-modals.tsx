import { Badge, Code, Group, Modal, SegmentedControl, Select, Stack, Text, Textarea, TextInput, Tooltip, UnstyledButton } from '@mantine/core';
import { IconChartBar, IconHierarchy } from '@tabler/icons-react';
import { useState } from 'react';

import { ModalActions } from '@/components/ui/modal-actions';
import { PROJECT_LANGUAGES } from '@/config/constants';
import { type LaunchPurpose, useLaunch } from '@/features/projects/api/get-launch';
import { useProjectApps } from '@/features/projects/api/get-project-apps';
import { type Publication, usePublishInsight } from '@/features/projects/api/publish-insight';
import { useRepoFolder } from '@/features/projects/api/repo-contents';
import { SizeSelect } from '@/components/ui/size-select';
import { extensionOf } from '@/features/projects/utils/files';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';
import { notify } from '@/lib/notify';
import type { InsightType, Language, ProjectView } from '@/lib/api/types';

export type PublishKind = 'insight' | 'workflow';

function Choice({ title, text, icon, disabled, onClick }: { title: string; text: string; icon: React.ReactNode; disabled?: string; onClick: () => void }) {
  const card = (
    <UnstyledButton
      onClick={disabled ? undefined : onClick}
      aria-disabled={disabled ? 'true' : undefined}
      aria-label={title}
      p="md"
      style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8, opacity: disabled ? 0.5 : 1, flex: 1, cursor: disabled ? 'not-allowed' : 'pointer' }}
    >
      <Stack gap={4} align="center">
        {icon}
        <Text fw={600}>{title}</Text>
        <Text size="xs" c="dimmed" ta="center">
          {text}
        </Text>
      </Stack>
    </UnstyledButton>
  );
  return disabled ? <Tooltip label={disabled}>{card}</Tooltip> : card;
}

/** The publish chooser (spec 001 §2, §4): Insight, or Workflow (when the workflows feature is there). */
export function PublishChooser({
  onChoose,
  onClose,
  workflowsAvailable = false,
}: {
  onChoose: (kind: PublishKind) => void;
  onClose: () => void;
  workflowsAvailable?: boolean;
}) {
  return (
    <Modal opened onClose={onClose} title="Publish" centered>
      <Group grow align="stretch">
        <Choice title="Insight" text="An app or a report built from this project." icon={<IconChartBar size={28} />} onClick={() => onChoose('insight')} />
        <Choice
          title="Workflow"
          text="A scheduled pipeline of this project's scripts."
          icon={<IconHierarchy size={28} />}
          disabled={workflowsAvailable ? undefined : PROJECT_MESSAGES.workflowsLater}
          onClick={() => onChoose('workflow')}
        />
      </Group>
    </Modal>
  );
}

/** What publishing `file` runs, as the launch rule decides from it (the app's pods do the same). */
function WhatRuns({ projectId, file, purpose }: { projectId: string; file: string; purpose: LaunchPurpose }) {
  const launch = useLaunch(projectId, file, purpose);
  if (launch.isError) {
    return (
      <Text size="xs" c="red" role="alert">
        {launch.error.message}
      </Text>
    );
  }
  if (!launch.data) return null;
  return (
    <Group gap={6} aria-label="What it runs" role="group">
      <Text size="xs" c="dimmed">
        It runs
      </Text>
      <Code aria-label="Command">{launch.data.command}</Code>
      <Badge size="xs" variant="light" color={launch.data.serves ? 'teal' : 'gray'}>
        {launch.data.framework}
      </Badge>
    </Group>
  );
}

type Mode = 'new' | 'existing';
type Errors = { name?: string; file?: string; app?: string };

/** A report for an R Markdown driver, else an application. */
function defaultType(file: string | null): Exclude<InsightType, 'user_report'> {
  return file && extensionOf(file) === '.rmd' ? 'report' : 'application';
}

/**
 * The insight publish modal (spec 001 §4, §5): a new insight (language python or r, a driver file,
 * a name, an optional description; POST /v1/applications) or an existing one whose files are
 * replaced (an app published from this project and a driver file; POST /v1/applications/restart).
 * Either way it goes to /insights.
 */
export function InsightPublishModal({
  project,
  openPaths,
  onClose,
  onPublished,
}: {
  /** The project (a project v2, or a legacy project's id and language). */
  project: Pick<ProjectView, 'id' | 'language'>;
  /** Files open in the editor, offered besides the root folder's. */
  openPaths: string[];
  onClose: () => void;
  onPublished: (kind: Mode) => void;
}) {
  const [mode, setMode] = useState<Mode>('new');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [language, setLanguage] = useState<Language>(project.language);
  const [file, setFile] = useState<string | null>(null);
  const [appType, setAppType] = useState<Exclude<InsightType, 'user_report'> | null>(null);
  const [appId, setAppId] = useState<string | null>(null);
  const [sizeId, setSizeId] = useState<string | null>(null);
  const [errors, setErrors] = useState<Errors>({});
  const root = useRepoFolder(project.id, '');
  const apps = useProjectApps(project.id, { enabled: mode === 'existing' });
  const publish = usePublishInsight({
    onSuccess: (r, p) => {
      notify.success(p.kind === 'new' ? PROJECT_MESSAGES.appCreated : r.message || 'App updated');
      onPublished(p.kind);
    },
  });

  const files = [...new Set([...(root.data ?? []).filter((i) => i.type === 'file').map((i) => i.path), ...openPaths])].sort();
  const type = appType ?? defaultType(file);
  const editableApps = (apps.data?.projectApps ?? []).filter((a) => a.access_level === 'edit');

  function submit(e: React.FormEvent) {
    e.preventDefault();
    const next: Errors = {
      file: file ? undefined : PROJECT_MESSAGES.selectFile,
      ...(mode === 'new' ? { name: name.trim() ? undefined : PROJECT_MESSAGES.emptyInsightName } : { app: appId ? undefined : PROJECT_MESSAGES.selectApp }),
    };
    setErrors(next);
    if (next.file || next.name || next.app || !file) return;
    const publication: Publication =
      mode === 'new'
        ? { kind: 'new', insight: { projectId: project.id, name: name.trim(), description: description.trim(), appType: type, language, driverFile: file, sizeId } }
        : { kind: 'existing', projectId: project.id, applicationId: appId!, driverFile: file };
    publish.mutate(publication);
  }

  const purpose = mode === 'new' && type === 'report' ? 'render' : 'serve';
  const fileSelect = (
    <Stack gap={4}>
      <Select
        label="Driver file"
        description="The file that starts the app or renders the report."
        placeholder={root.isPending ? 'Loading files…' : 'Choose a file'}
        data={files}
        value={file}
        onChange={(v) => {
          setFile(v);
          setErrors((e) => ({ ...e, file: undefined }));
        }}
        searchable
        error={errors.file}
        required
      />
      {file && <WhatRuns projectId={project.id} file={file} purpose={purpose} />}
    </Stack>
  );

  return (
    <Modal opened onClose={onClose} title="Publish as an insight" size="lg" centered>
      <form noValidate onSubmit={submit}>
        <Stack>
          <SegmentedControl
            aria-label="New or existing insight"
            value={mode}
            onChange={(v) => {
              setMode(v as Mode);
              setErrors({});
            }}
            data={[
              { value: 'new', label: 'New insight' },
              { value: 'existing', label: 'Existing insight' },
            ]}
          />
          {mode === 'new' ? (
            <>
              <TextInput
                label="Insight name"
                required
                data-autofocus
                value={name}
                error={errors.name}
                onChange={(e) => {
                  setName(e.currentTarget.value);
                  setErrors((er) => ({ ...er, name: undefined }));
                }}
              />
              <Textarea label="Description" autosize minRows={2} maxRows={4} value={description} onChange={(e) => setDescription(e.currentTarget.value)} />
              <Group grow>
                <Select
                  label="Language"
                  data={PROJECT_LANGUAGES.map((l) => ({ value: l.value, label: l.label }))}
                  value={language}
                  onChange={(v) => v && setLanguage(v as Language)}
                  allowDeselect={false}
                />
                <Select
                  label="Type"
                  data={[
                    { value: 'application', label: 'Application' },
                    { value: 'report', label: 'Report' },
                  ]}
                  value={type}
                  onChange={(v) => v && setAppType(v as Exclude<InsightType, 'user_report'>)}
                  allowDeselect={false}
                />
              </Group>
              {fileSelect}
              <SizeSelect for="insight" label="Size" description="The CPU, memory and disk its pod gets." value={sizeId} onChange={setSizeId} />
            </>
          ) : (
            <>
              <Select
                label="App to replace"
                placeholder={apps.isPending ? 'Loading apps…' : editableApps.length ? 'Choose an app' : 'No app from this project that you may edit'}
                data={editableApps.map((a) => ({ value: a.id, label: a.name }))}
                value={appId}
                onChange={(v) => {
                  setAppId(v);
                  setErrors((e) => ({ ...e, app: undefined }));
                }}
                error={errors.app}
                required
              />
              {fileSelect}
            </>
          )}
          <ModalActions error={publish.error?.message} submitLabel="Publish" loading={publish.isPending} onCancel={onClose} />
        </Stack>
      </form>
    </Modal>
  );
}
