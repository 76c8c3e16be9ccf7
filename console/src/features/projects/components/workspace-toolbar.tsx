import { Divider, Group, Select, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';
import {
  IconDeviceFloppy,
  IconExternalLink,
  IconKey,
  IconList,
  IconPlayerPlay,
  IconPlayerStop,
  IconSparkles,
  IconTerminal2,
} from '@tabler/icons-react';

import { IdleNote } from '@/components/ui/idle-note';
import { GatedButton } from '@/components/ui/gated-button';
import { useDockerImages } from '@/features/projects/api/get-docker-images';
import { useUpdateProject } from '@/features/projects/api/update-project';
import { SizeSelect } from '@/components/ui/size-select';
import type { Gate, WorkspaceGates } from '@/features/projects/utils/access';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';
import type { PreviewState, ProjectView } from '@/lib/api/types';
import { notify } from '@/lib/notify';

export type ToolPanel = 'env' | 'logs' | 'terminal' | 'ai';

/** The Docker image the project runs in, saved with PUT /v2/projects/{id} {entity:{image_id}}. */
function ImageSelect({ project, gate }: { project: ProjectView; gate: Gate }) {
  const images = useDockerImages();
  const update = useUpdateProject({ onSuccess: () => notify.success(PROJECT_MESSAGES.updated) });
  const data = (images.data?.dockerImages ?? []).map((i) => ({ value: i.id, label: i.purpose ? `${i.name} (${i.purpose})` : i.name }));
  // An image the list does not have (any more) still shows what the project uses.
  if (project.image_id && !data.some((d) => d.value === project.image_id)) data.push({ value: project.image_id, label: project.image_id });
  const select = (
    <Select
      size="xs"
      w={220}
      aria-label="Docker image"
      data={data}
      value={project.image_id || null}
      allowDeselect={false}
      disabled={!!gate || update.isPending}
      onChange={(imageId) => {
        if (imageId && imageId !== project.image_id) update.mutate({ id: project.id, entity: { image_id: imageId } });
      }}
    />
  );
  return gate ? (
    <Tooltip label={gate}>
      <div>{select}</div>
    </Tooltip>
  ) : (
    <Tooltip label="The image applies from the next run">{select}</Tooltip>
  );
}

/** The hardware size the preview runs with, saved with PUT /v2/projects/{id} {entity:{size_id}}. */
function SizeTool({ project, gate }: { project: ProjectView; gate: Gate }) {
  const update = useUpdateProject({ onSuccess: () => notify.success(PROJECT_MESSAGES.updated) });
  const select = (
    <SizeSelect
      for="project"
      size="xs"
      w={340}
      value={project.size_id}
      disabled={!!gate || update.isPending}
      onChange={(sizeId) => {
        if (sizeId !== (project.size_id ?? null)) update.mutate({ id: project.id, entity: { size_id: sizeId ?? '' } });
      }}
    />
  );
  return (
    <Tooltip label={gate ?? 'The size applies from the next run'}>
      <div>{select}</div>
    </Tooltip>
  );
}

type Props = {
  project: ProjectView;
  preview: PreviewState;
  gates: WorkspaceGates;
  openPanels: ReadonlySet<ToolPanel>;
  onTogglePanel: (panel: ToolPanel) => void;
  onRun: (run: boolean) => void;
  runPending: boolean;
  onCommit: () => void;
  /** Why Commit has nothing to do now (no file, no changes), when access allows it. */
  commitIdle: Gate;
  /** Why the AI chat cannot open here (null: it can). */
  assistant: Gate;
  /** Beside Run: which file it starts and what runs it. */
  launch?: ReactNode;
};

/**
 * The workspace toolbar (spec 001 §2): run/stop with what Run runs, commit (ctrl/cmd-S), web view,
 * secrets, logs, terminal, the AI assistant's chat, and the image and size selectors. Every control that may not
 * be used says why (spec 001 §6, §8).
 */
export function WorkspaceToolbar({ project, preview, gates, openPanels, onTogglePanel, onRun, runPending, onCommit, commitIdle, assistant, launch }: Props) {
  const live = preview.status === 'running' || preview.status === 'starting';
  const toggle = (panel: ToolPanel, label: string, Icon: typeof IconKey, gate: Gate) => (
    <GatedButton
      size="xs"
      variant={openPanels.has(panel) ? 'filled' : 'default'}
      aria-pressed={openPanels.has(panel)}
      leftSection={<Icon size={14} />}
      blocked={gate}
      onClick={() => onTogglePanel(panel)}
    >
      {label}
    </GatedButton>
  );

  return (
    <Group gap={6} wrap="wrap" role="toolbar" aria-label="Project tools">
      {live ? (
        <GatedButton size="xs" color="red" variant="light" leftSection={<IconPlayerStop size={14} />} loading={runPending} blocked={gates.run} onClick={() => onRun(false)}>
          {preview.status === 'starting' ? 'Starting… Stop' : 'Stop'}
        </GatedButton>
      ) : (
        <GatedButton size="xs" color="teal" leftSection={<IconPlayerPlay size={14} />} loading={runPending} blocked={gates.run} onClick={() => onRun(true)}>
          Run
        </GatedButton>
      )}
      {launch}
      {live && <IdleNote idle={preview.idle} kind="preview" />}
      <GatedButton size="xs" variant="default" leftSection={<IconDeviceFloppy size={14} />} blocked={gates.commit ?? commitIdle} onClick={onCommit}>
        Commit
      </GatedButton>
      <GatedButton
        size="xs"
        variant="default"
        leftSection={<IconExternalLink size={14} />}
        blocked={gates.webView}
        onClick={() => {
          if (preview.web_url) window.open(preview.web_url, '_blank', 'noopener,noreferrer');
        }}
      >
        Web view
      </GatedButton>
      <Divider orientation="vertical" />
      {toggle('env', 'Secrets', IconKey, gates.secrets)}
      {toggle('logs', 'Logs', IconList, gates.logs)}
      {toggle('terminal', 'Terminal', IconTerminal2, gates.terminal)}
      {toggle('ai', 'AI assistant', IconSparkles, assistant)}
      <Divider orientation="vertical" />
      <ImageSelect project={project} gate={gates.image} />
      <SizeTool project={project} gate={gates.image} />
    </Group>
  );
}
