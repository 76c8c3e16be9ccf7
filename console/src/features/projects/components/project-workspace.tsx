import { Badge, Box, Center, Group, Loader, Skeleton, Stack, Tabs, Text } from '@mantine/core';
import { IconSend, IconShare } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useEffectEvent, useState } from 'react';
import { useNavigate } from 'react-router';

import { LogViewer, MISSING_IDS } from '@/components/log-viewer/log-viewer';
import { GatedButton } from '@/components/ui/gated-button';
import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { ResizeHandle } from '@/components/ui/resize-handle';
import { UnsavedChangesDialog, UnsavedChangesGuard } from '@/components/ui/unsaved-changes';
import { DEV_TOOLS_WIDTH, FILE_NAVIGATOR_WIDTH } from '@/config/constants';
import { paths } from '@/config/paths';
import { usePreviewCheck } from '@/features/projects/api/check-project';
import { useProject } from '@/features/projects/api/get-project';
import { getRepoFileQueryOptions, useRepoFolder } from '@/features/projects/api/repo-contents';
import { useRunProject } from '@/features/projects/api/run-project';
import { CommitModal, type CommitTarget } from '@/features/projects/components/commit-modal';
import { type DevPanel, DevToolsPanel } from '@/features/projects/components/dev-tools-panel';
import { EditorPane } from '@/features/projects/components/editor-pane';
import { EnvVarsPanel } from '@/features/projects/components/env-vars-panel';
import { FileNavigator } from '@/features/projects/components/file-navigator';
import { LinkedWorkflows } from '@/features/projects/components/linked-workflows';
import { showImageInTab } from '@/features/projects/components/open-image';
import { isDirty, useOpenFiles } from '@/features/projects/components/open-files';
import { LaunchPicker } from '@/features/projects/components/launch-picker';
import { PreviewStatus } from '@/features/projects/components/preview-status';
import { InsightPublishModal, PublishChooser, type PublishKind } from '@/features/projects/components/publish-modals';
import type { LinkedWorkflowsPanel, WorkflowPublish } from '@/features/projects/components/slots';
import { type ToolPanel, WorkspaceToolbar } from '@/features/projects/components/workspace-toolbar';
import { canEdit, workspaceGates } from '@/features/projects/utils/access';
import { decodeBytes, encodeText, isImageFile } from '@/features/projects/utils/files';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';
import type { PreviewState, ProjectView, RepoContentItem } from '@/lib/api/types';
import { useSession } from '@/lib/auth';
import { notify } from '@/lib/notify';

/** xterm is its own chunk, loaded when the terminal panel first opens. */
const ExecTerminal = lazy(() => import('@/components/terminal/exec-terminal').then((m) => ({ default: m.ExecTerminal })));

const PANEL_TITLES: Record<ToolPanel, string> = { env: 'Env vars', logs: 'Logs', terminal: 'Terminal', ai: 'AI chat' };

const STATUS_COLORS: Record<string, string> = { running: 'teal', starting: 'yellow', failed: 'red', stopped: 'gray' };

export type WorkspaceSlots = {
  /** The datasets panel (My Files / Shared with snippets): the datasets feature, through the app layer. */
  datasetsPanel?: ReactNode;
  /** The toolbar's 'Discussion' (the comments feature, through the app layer). */
  discussion?: ReactNode;
  /** The 'AI chat' panel about this project and its open file (the assistant feature). */
  aiChat?: (context: { projectId: string; file: string | null }) => ReactNode;
  /** Tools over the log panel's lines, e.g. the assistant's log summary. */
  logTools?: (context: { id: string; lines: string[] }) => ReactNode;
  onShare?: (project: ProjectView) => void;
  /** After an insight was published (the app layer refreshes the insights). */
  onPublished?: () => void;
  /** The linked workflows panel: the workflows feature, through the app layer. */
  linkedWorkflows?: LinkedWorkflowsPanel;
  /** The publish chooser's Workflow branch: the workflows feature, through the app layer. */
  workflowPublish?: WorkflowPublish;
};

function Workspace({
  project,
  preview,
  failureLog,
  slots,
}: {
  project: ProjectView;
  preview: PreviewState;
  failureLog: string[] | null;
  slots: WorkspaceSlots;
}) {
  const id = project.id;
  const { user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const gates = workspaceGates(project.access_level, preview);
  const editor = canEdit(project.access_level);
  const { files, activeFile, anyDirty, dispatch } = useOpenFiles();
  const [folder, setFolder] = useState('');
  const [navWidth, setNavWidth] = useState<number>(FILE_NAVIGATOR_WIDTH.initial);
  const [toolsWidth, setToolsWidth] = useState<number>(DEV_TOOLS_WIDTH.initial);
  const [panels, setPanels] = useState<ToolPanel[]>([]);
  const [commitTarget, setCommitTarget] = useState<CommitTarget | null>(null);
  const [publishing, setPublishing] = useState<'choose' | PublishKind | null>(null);
  const [loadingPath, setLoadingPath] = useState<string | null>(null);
  const [closing, setClosing] = useState<string | null>(null);
  const run = useRunProject(id);
  const rootFiles = useRepoFolder(id, '');
  // The file Run starts: the one chosen before, until another is chosen here.
  const [runFile, setRunFile] = useState<string | null>(preview.file ?? null);
  usePreviewCheck(id, preview.status);

  const commitIdle = !activeFile ? 'Open a file to commit it' : !isDirty(activeFile) ? 'No unsaved changes to commit' : null;

  function startCommit() {
    if (!gates.commit && !commitIdle && activeFile && !commitTarget) setCommitTarget({ kind: 'file', file: activeFile });
  }

  // ctrl/cmd-S commits the shown file, for edit access only (spec 001 §2, §6).
  const onKey = useEffectEvent((e: KeyboardEvent) => {
    if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 's') {
      e.preventDefault();
      startCommit();
    }
  });
  useEffect(() => {
    const handler = (e: KeyboardEvent) => onKey(e);
    window.addEventListener('keydown', handler);
    return () => window.removeEventListener('keydown', handler);
  }, []);

  async function load(path: string) {
    return queryClient.fetchQuery(getRepoFileQueryOptions(id, path));
  }

  async function openItem(item: RepoContentItem) {
    if (isImageFile(item.path)) {
      // Opened now, while the click still counts as the user's (pop-up blockers).
      const tab = window.open('', '_blank');
      if (!tab) {
        notify.error('Your browser blocked the new tab for this image.');
        return;
      }
      try {
        showImageInTab(tab, item.path, decodeBytes((await load(item.path)).content));
      } catch (e) {
        tab.close();
        notify.error(e instanceof Error ? e.message : String(e));
      }
      return;
    }
    if (files.some((f) => f.path === item.path)) {
      dispatch({ type: 'activated', path: item.path });
      return;
    }
    setLoadingPath(item.path);
    try {
      dispatch({ type: 'opened', file: await load(item.path) });
    } catch (e) {
      notify.error(e instanceof Error ? e.message : String(e));
    } finally {
      setLoadingPath(null);
    }
  }

  async function reload(path: string) {
    try {
      dispatch({ type: 'reloaded', file: await load(path) });
    } catch (e) {
      notify.error(e instanceof Error ? e.message : String(e));
    }
  }

  function togglePanel(panel: ToolPanel) {
    setPanels((open) => (open.includes(panel) ? open.filter((p) => p !== panel) : [...open, panel]));
  }

  function runOrStop(start: boolean) {
    run.mutate(start ? { run: true, file: runFile } : { run: false });
  }

  function openLogs() {
    setPanels((open) => (open.includes('logs') ? open : [...open, 'logs']));
  }

  const projectFiles = [...new Set([...(rootFiles.data ?? []).filter((i) => i.type === 'file').map((i) => i.path), ...files.map((f) => f.path)])].sort();

  const uid = user?.uid ?? '';
  const devPanels: DevPanel[] = panels.map((key) => ({
    key,
    title: PANEL_TITLES[key],
    content:
      key === 'env' ? (
        <EnvVarsPanel projectId={id} editable={editor} />
      ) : !uid ? (
        <Text size="sm" c="red">
          {MISSING_IDS}
        </Text>
      ) : key === 'logs' ? (
        <LogViewer id={id} uid={uid} running={preview.running} tools={slots.logTools && ((lines) => slots.logTools?.({ id, lines }))} />
      ) : key === 'ai' ? (
        slots.aiChat?.({ projectId: id, file: activeFile?.path ?? null })
      ) : (
        <Suspense
          fallback={
            <Center h="100%" role="status" aria-label="Loading the terminal">
              <Loader size="sm" />
            </Center>
          }
        >
          <ExecTerminal id={id} uid={uid} />
        </Suspense>
      ),
  }));

  return (
    <Stack gap="xs" h="calc(100dvh - var(--app-shell-header-height, 0px) - 2 * var(--mantine-spacing-lg))" mih={480}>
      <PageHeader
        title={project.name}
        crumbs={[{ label: 'Projects', href: paths.projects.getHref() }, { label: project.name }]}
        actions={
          <>
            <Badge variant="dot" color={STATUS_COLORS[preview.status] ?? 'gray'} aria-label="Preview status">
              {preview.status}
            </Badge>
            <Badge variant="light" color="gray">
              {project.is_owner ? 'owner' : project.access_level}
            </Badge>
            {slots.discussion}
            {slots.onShare && (
              <GatedButton size="xs" variant="default" leftSection={<IconShare size={14} />} blocked={gates.share} onClick={() => slots.onShare?.(project)}>
                Share
              </GatedButton>
            )}
            <GatedButton size="xs" leftSection={<IconSend size={14} />} blocked={gates.publish} onClick={() => setPublishing('choose')}>
              Publish
            </GatedButton>
          </>
        }
      />
      <WorkspaceToolbar
        project={project}
        preview={preview}
        gates={gates}
        openPanels={new Set(panels)}
        onTogglePanel={togglePanel}
        onRun={runOrStop}
        runPending={run.isPending}
        onCommit={startCommit}
        commitIdle={commitIdle}
        assistant={slots.aiChat ? null : PROJECT_MESSAGES.aiUnavailable}
        launch={<LaunchPicker projectId={id} files={projectFiles} value={runFile} onChange={setRunFile} blocked={gates.run} />}
      />
      <PreviewStatus preview={preview} failureLog={failureLog} onOpenLogs={gates.logs ? undefined : openLogs} />
      <Group gap={0} wrap="nowrap" align="stretch" style={{ flex: 1, minHeight: 0 }}>
        <Box style={{ width: navWidth, flex: '0 0 auto', minWidth: 0 }} component="nav" aria-label="Project panels">
          <Tabs defaultValue="files" h="100%" style={{ display: 'flex', flexDirection: 'column' }}>
            <Tabs.List grow style={{ flexWrap: 'nowrap' }}>
              {['Files', 'Datasets', 'Workflows'].map((label) => (
                <Tabs.Tab key={label} value={label.toLowerCase()} px={6} fz="xs">
                  {label}
                </Tabs.Tab>
              ))}
            </Tabs.List>
            <Tabs.Panel value="files" pt={4} style={{ flex: 1, minHeight: 0 }}>
              <FileNavigator
                projectId={id}
                folder={folder}
                onFolder={setFolder}
                onOpen={(item) => void openItem(item)}
                onAdd={() => setCommitTarget({ kind: 'new', folder })}
                onDeleted={(path) => dispatch({ type: 'closed', path })}
                activePath={activeFile?.path ?? null}
                filesGate={gates.files}
              />
            </Tabs.Panel>
            <Tabs.Panel value="datasets" pt={4} style={{ flex: 1, minHeight: 0, overflow: 'auto' }}>
              {slots.datasetsPanel}
            </Tabs.Panel>
            <Tabs.Panel value="workflows" pt={4}>
              {slots.linkedWorkflows ? slots.linkedWorkflows({ projectId: id, level: project.access_level }) : <LinkedWorkflows />}
            </Tabs.Panel>
          </Tabs>
        </Box>
        <ResizeHandle label="Resize file navigator" width={navWidth} limits={FILE_NAVIGATOR_WIDTH} side="left" onResize={setNavWidth} />
        <EditorPane
          files={files}
          active={activeFile}
          readOnly={!editor}
          loadingPath={loadingPath}
          onActivate={(path) => dispatch({ type: 'activated', path })}
          onClose={(path) => {
            const file = files.find((f) => f.path === path);
            if (file && isDirty(file)) setClosing(path);
            else dispatch({ type: 'closed', path });
          }}
          onEdit={(path, text) => dispatch({ type: 'edited', path, text })}
        />
        <DevToolsPanel panels={devPanels} width={toolsWidth} onResize={setToolsWidth} onClose={(key) => togglePanel(key as ToolPanel)} />
      </Group>

      {commitTarget && (
        <CommitModal
          projectId={id}
          target={commitTarget}
          onClose={() => setCommitTarget(null)}
          onReload={(path) => void reload(path)}
          onCommitted={(c) =>
            c.isNew
              ? dispatch({
                  type: 'opened',
                  file: { name: c.path.split('/').at(-1)!, path: c.path, type: 'file', sha: c.sha, size: 0, encoding: 'base64', content: encodeText(c.text) },
                })
              : dispatch({ type: 'committed', path: c.path, sha: c.sha, text: c.text })
          }
        />
      )}
      {publishing === 'choose' && (
        <PublishChooser
          onClose={() => setPublishing(null)}
          workflowsAvailable={!!slots.workflowPublish}
          onChoose={(kind) => setPublishing(kind)}
        />
      )}
      {publishing === 'workflow' &&
        slots.workflowPublish?.({
          projectId: id,
          files: projectFiles,
          onClose: () => setPublishing(null),
          onPublished: () => {
            setPublishing(null);
            navigate(paths.workflows.getHref());
          },
        })}
      {publishing === 'insight' && (
        <InsightPublishModal
          project={project}
          openPaths={files.map((f) => f.path)}
          onClose={() => setPublishing(null)}
          onPublished={() => {
            setPublishing(null);
            slots.onPublished?.();
            navigate(paths.insights.getHref());
          }}
        />
      )}
      <UnsavedChangesDialog
        opened={closing !== null}
        message={PROJECT_MESSAGES.leaveUnsaved}
        onStay={() => setClosing(null)}
        onLeave={() => {
          if (closing) dispatch({ type: 'closed', path: closing });
          setClosing(null);
        }}
      />
      <UnsavedChangesGuard dirty={anyDirty} message={PROJECT_MESSAGES.leaveUnsaved} />
    </Stack>
  );
}

/**
 * /projectsv2/{id} (spec 001 §2 "Project v2 detail"): header with breadcrumbs back to the list,
 * the file navigator, the editor, the toolbar, the dev-tools side panel and the publish flow.
 */
export function ProjectWorkspace({ id, ...slots }: { id: string } & WorkspaceSlots) {
  const detail = useProject(id);
  if (detail.isPending) {
    return (
      <Stack role="status" aria-label="Loading the project">
        <Skeleton h={40} w={300} />
        <Skeleton h={30} />
        <Skeleton h={400} />
      </Stack>
    );
  }
  if (detail.isError) {
    return (
      <Stack>
        <PageHeader title="Project" crumbs={[{ label: 'Projects', href: paths.projects.getHref() }]} />
        <QueryError error={detail.error} onRetry={() => void detail.refetch()} back={{ label: 'Back to Projects', href: paths.projects.getHref() }} />
      </Stack>
    );
  }
  return <Workspace project={detail.data.project} preview={detail.data.preview} failureLog={detail.data.failure_log} slots={slots} />;
}
