import { Alert, Badge, Button, Center, Drawer, Group, Loader, Paper, Progress, Stack, Text, Tooltip } from '@mantine/core';
import { IdleNote } from '@/components/ui/idle-note';
import { IconEye, IconGitCommit, IconPencil, IconPlayerStop, IconTerminal2 } from '@tabler/icons-react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';

import { GatedButton } from '@/components/ui/gated-button';
import { PageHeader } from '@/components/ui/page-header';
import { QueryError } from '@/components/ui/query-error';
import { NOTEBOOK_FRAME_DELAY_MS } from '@/config/constants';
import { paths } from '@/config/paths';
import type { JupyterState, NotebookDetail } from '@/lib/api/types';
import { useJupyterDevUrl } from '@/features/notebooks/api/get-jupyter-dev-url';
import { useNotebook } from '@/features/notebooks/api/get-notebook';
import { useOpenNotebook } from '@/features/notebooks/api/open-notebook';
import { useStopNotebook } from '@/features/notebooks/api/stop-notebook';
import { JUPYTER_STATUS_COLORS } from '@/features/notebooks/components/legacy-project-detail';
import { NotebookCommitModal } from '@/features/notebooks/components/notebook-commit-modal';
import { useDelayed } from '@/features/notebooks/components/use-delayed';
import { canEdit, canExecute } from '@/features/notebooks/utils/access';
import { NOTEBOOK_MESSAGES } from '@/features/notebooks/utils/messages';
import { useSession } from '@/lib/auth';
import { notify } from '@/lib/notify';

/** xterm is its own chunk, loaded when the terminal first opens. */
const ExecTerminal = lazy(() => import('@/components/terminal/exec-terminal').then((m) => ({ default: m.ExecTerminal })));

export const OPEN_FOR_TERMINAL = 'Open the notebook to use the terminal';
export const NOTEBOOK_STOPPED = 'JupyterLab stopped: your saved work stays in the project';

/** What the frame's place says while JupyterLab is not shown yet: a step of three, or null. */
export function startingStep(opening: boolean, jupyter: JupyterState | undefined, frameReady: boolean): { label: string; value: number } | null {
  if (opening && !jupyter) return { label: 'Opening the notebook…', value: 15 };
  if (jupyter?.status === 'starting' || (opening && jupyter?.status !== 'running')) return { label: 'Starting JupyterLab…', value: 45 };
  if (jupyter?.status === 'running' && !frameReady) return { label: 'Loading JupyterLab…', value: 85 };
  return null;
}

/**
 * /notebooks/{id} (spec 001 §2): POST /v1/notebook/{id}/open starts the project's JupyterLab and
 * answers the address that opens the notebook in it once it runs; while it starts,
 * GET /v1/notebook/detail/{id} is asked again (JUPYTER_CHECK_MS), with the progress shown, until
 * it runs and answers the address. The frame appears `frameDelayMs`
 * (5 s, spec 001 §9) after the open call succeeded and JupyterLab runs. Beside it: the terminal
 * (a shell in JupyterLab's container), the commit modal, the preview and the dev port.
 */
export function NotebookWorkspace({ id, frameDelayMs = NOTEBOOK_FRAME_DELAY_MS }: { id: string; frameDelayMs?: number }) {
  const { user } = useSession();
  const detail = useNotebook(id, { pollWhileStarting: true });
  const open = useOpenNotebook();
  const openCall = open.mutate;
  const stop = useStopNotebook({ onSuccess: () => notify.success(NOTEBOOK_STOPPED) });
  const [committing, setCommitting] = useState(false);
  const [terminal, setTerminal] = useState(false);

  const data: NotebookDetail | undefined = detail.data;
  const jupyter = data?.jupyter ?? open.data?.jupyter;
  const running = jupyter?.status === 'running';
  const level = data?.project ? { access_level: data.project.access_level } : null;
  const executable = !!level && canExecute(level);
  const editable = !!level && canEdit(level);

  // Open once on arrival (a ref, so StrictMode's second effect run does not open twice).
  const opened = useRef(false);
  useEffect(() => {
    if (opened.current) return;
    opened.current = true;
    openCall(id);
  }, [id, openCall]);

  // The notebook's address in JupyterLab: the open call's, or once a starting server runs, the
  // detail's. Each answer carries a new one-use ticket, so the first one found is kept: the frame
  // is not loaded again when the detail is asked for again.
  const [target, setTarget] = useState<string | null>(null);
  const address = running ? (open.data?.iframe ?? data?.iframe ?? null) : null;
  const ended = jupyter?.status === 'stopped' || jupyter?.status === 'failed';
  if (target === null && address) setTarget(address);
  else if (target !== null && ended) setTarget(null);
  const frame = useDelayed(target, frameDelayMs);
  const devUrl = useJupyterDevUrl(user?.uid ?? '', data?.project.id ?? '', { enabled: running && executable && !!data });
  const devPort = devUrl.data?.dev_port ?? jupyter?.dev_port ?? null;
  const step = startingStep(open.isPending, jupyter, !!frame);

  function retry() {
    openCall(id);
  }

  const name = data?.notebook.name ?? 'Notebook';
  return (
    <Stack gap="md">
      <PageHeader
        title={name}
        crumbs={[
          { label: 'Notebooks', href: paths.notebooks.getHref() },
          ...(data ? [{ label: data.project.name, href: paths.legacyProject.getHref(data.project.id) }] : []),
          { label: name },
        ]}
        actions={
          data && (
            <>
              {jupyter && (
                <Badge variant="dot" color={JUPYTER_STATUS_COLORS[jupyter.status] ?? 'gray'} aria-label="JupyterLab status">
                  {jupyter.status}
                </Badge>
              )}
              {running && <IdleNote idle={jupyter?.idle} kind="notebook" />}
              {devPort !== null && (
                <Tooltip label="The port JupyterLab listens on in its container">
                  <Badge variant="light" color="gray" aria-label="Dev port">
                    Dev port {devPort}
                  </Badge>
                </Tooltip>
              )}
              <GatedButton
                variant="default"
                leftSection={<IconTerminal2 size={16} />}
                blocked={executable ? (running ? null : OPEN_FOR_TERMINAL) : NOTEBOOK_MESSAGES.needExecuteOrEdit}
                onClick={() => setTerminal(true)}
              >
                Terminal
              </GatedButton>
              {(running || jupyter?.status === 'starting') && (
                <GatedButton
                  variant="default"
                  color="red"
                  leftSection={<IconPlayerStop size={16} />}
                  blocked={executable ? null : NOTEBOOK_MESSAGES.needExecuteOrEdit}
                  loading={stop.isPending}
                  onClick={() => stop.mutate(id)}
                >
                  Stop
                </GatedButton>
              )}
              <GatedButton
                variant="default"
                leftSection={<IconGitCommit size={16} />}
                blocked={editable ? null : NOTEBOOK_MESSAGES.needEdit}
                onClick={() => setCommitting(true)}
              >
                Commit
              </GatedButton>
              <Button variant="default" leftSection={<IconEye size={16} />} component={Link} to={paths.notebookPreview.getHref(id)}>
                Preview
              </Button>
              {editable && (
                <Button variant="default" leftSection={<IconPencil size={16} />} component={Link} to={paths.notebookEdit.getHref(id)}>
                  Edit
                </Button>
              )}
            </>
          )
        }
      />

      {detail.isError && <QueryError error={detail.error} onRetry={() => detail.refetch()} back={{ label: 'Back to Notebooks', href: paths.notebooks.getHref() }} />}

      {!detail.isError && (
        <Paper withBorder data-testid="jupyter-frame-container" style={{ height: 'calc(100vh - 200px)', minHeight: 420, overflow: 'hidden' }}>
          {frame ? (
            <iframe
              title={`JupyterLab: ${name}`}
              src={frame}
              allow="clipboard-read; clipboard-write"
              style={{ width: '100%', height: '100%', border: 0, display: 'block' }}
            />
          ) : open.isError ? (
            <Center h="100%" p="md">
              <Alert color="red" variant="light" role="alert" title="The notebook could not be opened" maw={520}>
                <Stack gap="xs">
                  <Text size="sm">{open.error.message}</Text>
                  <Group gap="xs">
                    {executable && (
                      <Button size="xs" variant="light" color="red" onClick={retry}>
                        Try again
                      </Button>
                    )}
                    <Button size="xs" variant="default" component={Link} to={paths.notebookPreview.getHref(id)}>
                      Preview instead
                    </Button>
                  </Group>
                </Stack>
              </Alert>
            </Center>
          ) : jupyter?.status === 'failed' ? (
            <Center h="100%" p="md">
              <Alert color="red" variant="light" role="alert" title="JupyterLab could not start" maw={520}>
                <Stack gap="xs">
                  <Text size="sm">Its container stopped with an error. Try again, or ask your administrator about the project’s image.</Text>
                  <Group>
                    <Button size="xs" variant="light" color="red" onClick={retry}>
                      Try again
                    </Button>
                  </Group>
                </Stack>
              </Alert>
            </Center>
          ) : step ? (
            <Center h="100%" role="status" aria-label={step.label}>
              <Stack align="center" gap="sm" w={320}>
                <Loader size="sm" />
                <Text size="sm">{step.label}</Text>
                <Progress value={step.value} animated striped w="100%" aria-label="Opening progress" />
              </Stack>
            </Center>
          ) : (
            <Center h="100%" p="md">
              <Stack align="center" gap="sm">
                <Text fw={600}>JupyterLab is not running</Text>
                {executable && (
                  <Button size="xs" onClick={retry}>
                    Start JupyterLab
                  </Button>
                )}
              </Stack>
            </Center>
          )}
        </Paper>
      )}

      {committing && data && <NotebookCommitModal notebook={data.notebook} onClose={() => setCommitting(false)} />}
      <Drawer
        opened={terminal}
        onClose={() => setTerminal(false)}
        position="bottom"
        size="45%"
        title={`Terminal: ${data?.project.name ?? ''}`}
        closeButtonProps={{ 'aria-label': 'Close the terminal' }}
      >
        {terminal && data && (
          <Suspense
            fallback={
              <Center h={200} role="status" aria-label="Loading the terminal">
                <Loader size="sm" />
              </Center>
            }
          >
            <div style={{ height: 'calc(45vh - 80px)' }}>
              <ExecTerminal id={data.project.id} uid={user?.uid ?? ''} />
            </div>
          </Suspense>
        )}
      </Drawer>
    </Stack>
  );
}
