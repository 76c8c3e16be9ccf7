import { ActionIcon, Alert, Anchor, Box, Breadcrumbs, Button, Center, Flex, Group, Loader, Paper, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { IconMaximize, IconMinimize, IconTerminal2 } from '@tabler/icons-react';
import { type ReactNode, useEffect, useState } from 'react';
import { Link } from 'react-router';

import { QueryError } from '@/components/ui/query-error';
import { APP_FRAME_DELAY_MS } from '@/config/constants';
import { paths } from '@/config/paths';
import { useInsight } from '@/features/insights/api/get-insight';
import { useRunInsight } from '@/features/insights/api/run-insight';
import type { InsightResponse, InsightView } from '@/lib/api/types';
import { AppConsole } from '@/features/insights/components/app-console';
import { AppStatePanel } from '@/features/insights/components/app-state-panel';
import { canRun, isRunning } from '@/features/insights/components/insight-actions';
import { IdleNote } from '@/components/ui/idle-note';
import { StatusBadge } from '@/features/insights/components/insight-card';
import { notify } from '@/lib/notify';

export { NOT_RUNNING } from '@/features/insights/components/app-state-panel';

/**
 * An address the frame may load: an absolute http(s) URL (the apps origin, an external app, a
 * report's file) or a path of ours. Never `javascript:`, `data:` or a scheme-relative `//host`.
 */
export function frameable(url: string | null | undefined): string | null {
  if (!url) return null;
  if (url.startsWith('/')) return url.startsWith('//') || url.startsWith('/\\') ? null : url;
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Where the frame points: the API's `open_url` (the app on its own origin, or an external app's
 * URL, which the console opens itself — the API never redirects to it), a report's file, or the
 * app URL; only an address {@link frameable} allows.
 */
export function frameUrl(data: InsightResponse): string | null {
  const app = data.application;
  if (app.app_type !== 'application') return frameable(data.report_url ?? data.open_url);
  return frameable(data.open_url ?? app.app_url);
}

/**
 * The app open page (spec 001 §2): loads the app, sets the frame's address 1 s later, a
 * fullscreen toggle, a breadcrumb back to Insights, and a start button when the app is not
 * running, and for executors of an app with a container a 'Logs' button that opens the side
 * console (Logs and Terminal tabs). `aside` (the comments) sits beside the frame; `template` (the
 * templates feature, through the app layer) renders a template app in place of the frame.
 */
export function AppViewer({
  id,
  aside,
  template,
  logTools,
}: {
  id: string;
  aside?: ReactNode;
  template?: (app: InsightView) => ReactNode;
  /** Tools over the console's log lines (the assistant's log summary, through the app layer). */
  logTools?: (context: { id: string; lines: string[] }) => ReactNode;
}) {
  const detail = useInsight(id, { follow: true });
  const [src, setSrc] = useState<string | null>(null);
  const [fullscreen, setFullscreen] = useState(false);
  const [consoleOpen, setConsoleOpen] = useState(false);
  const start = useRunInsight({ onSuccess: (r) => notify.success(r.message) });
  const target = detail.data ? frameUrl(detail.data) : null;

  // No address: the frame empties at once (adjusted while rendering, not in an effect).
  const [targetBefore, setTargetBefore] = useState(target);
  if (target !== targetBefore) {
    setTargetBefore(target);
    if (!target) setSrc(null);
  }

  useEffect(() => {
    if (!target) return;
    const timer = window.setTimeout(() => setSrc(target), APP_FRAME_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [target]);

  useHotkeys([['Escape', () => setFullscreen(false)]]);

  const app = detail.data?.application;
  const name = app?.name ?? 'Insight';

  return (
    <Stack gap="md">
      <nav aria-label="Breadcrumb">
        <Breadcrumbs>
          <Anchor component={Link} to={paths.insights.getHref()} size="sm">
            Insights
          </Anchor>
          <Text size="sm">{name}</Text>
        </Breadcrumbs>
      </nav>

      {detail.isPending && (
        <Center h="50vh" role="status" aria-label="Loading the app">
          <Loader />
        </Center>
      )}
      {detail.isError && <QueryError error={detail.error} onRetry={() => detail.refetch()} back={{ label: 'Back to Insights', href: paths.insights.getHref() }} />}

      {app && (
        <>
          <Group justify="space-between">
            <Group gap="sm">
              <Title order={2}>{app.name}</Title>
              <StatusBadge status={app.status} message={app.status_message} />
              <IdleNote idle={app.idle} kind="app" />
            </Group>
            <Group gap="xs">
              {canRun(app) && !app.is_template && (
                <Button variant="default" leftSection={<IconTerminal2 size={16} />} onClick={() => setConsoleOpen(true)}>
                  Logs
                </Button>
              )}
              <Tooltip label={fullscreen ? 'Exit fullscreen' : 'Fullscreen'}>
                <ActionIcon
                  variant="default"
                  size="lg"
                  aria-label={fullscreen ? 'Exit fullscreen' : 'Fullscreen'}
                  aria-pressed={fullscreen}
                  onClick={() => setFullscreen((f) => !f)}
                  disabled={!target}
                >
                  {fullscreen ? <IconMinimize size={18} /> : <IconMaximize size={18} />}
                </ActionIcon>
              </Tooltip>
            </Group>
          </Group>
          {canRun(app) && !app.is_template && <AppConsole id={app.id} name={app.name} running={isRunning(app)} opened={consoleOpen} onClose={() => setConsoleOpen(false)} logTools={logTools} />}

          <Flex direction={{ base: 'column', md: 'row' }} align="stretch" gap="md">
            <Box style={{ flex: 1, minWidth: 0 }}>
              {app.is_template && template ? (
                <Box
                  data-testid="template-container"
                  data-fullscreen={fullscreen || undefined}
                  bg="var(--mantine-color-body)"
                  p={fullscreen ? 'md' : 0}
                  style={fullscreen ? { position: 'fixed', inset: 0, zIndex: 300, overflow: 'auto' } : undefined}
                >
                  {fullscreen && (
                    <ActionIcon pos="absolute" top={8} right={8} variant="filled" aria-label="Exit fullscreen" onClick={() => setFullscreen(false)} style={{ zIndex: 1 }}>
                      <IconMinimize size={16} />
                    </ActionIcon>
                  )}
                  {template(app)}
                </Box>
              ) : detail.data?.open_error ? (
                <Paper withBorder p="xl">
                  <Alert color="orange" variant="light" title="This app cannot be opened here">
                    {detail.data.open_error}
                  </Alert>
                </Paper>
              ) : target ? (
                <Paper
                  withBorder
                  data-testid="app-frame-container"
                  data-fullscreen={fullscreen || undefined}
                  style={
                    fullscreen
                      ? { position: 'fixed', inset: 0, zIndex: 300, borderRadius: 0 }
                      : { height: 'calc(100vh - 220px)', minHeight: 420, overflow: 'hidden' }
                  }
                >
                  {fullscreen && (
                    <ActionIcon
                      pos="absolute"
                      top={8}
                      right={8}
                      variant="filled"
                      aria-label="Exit fullscreen"
                      onClick={() => setFullscreen(false)}
                      style={{ zIndex: 1 }}
                    >
                      <IconMinimize size={16} />
                    </ActionIcon>
                  )}
                  {src ? (
                    <iframe
                      title={app.name}
                      src={src}
                      // Apps are served from their own origin: grant the features a cross-origin frame lacks.
                      allow="fullscreen; clipboard-read; clipboard-write"
                      style={{ width: '100%', height: '100%', border: 0, display: 'block' }}
                    />
                  ) : (
                    <Center h="100%" role="status" aria-label="Opening the app">
                      <Loader size="sm" />
                    </Center>
                  )}
                </Paper>
              ) : (
                <AppStatePanel
                  app={app}
                  failureLog={detail.data?.failure_log}
                  runnable={canRun(app)}
                  starting={start.isPending}
                  onStart={() => start.mutate({ id: app.id, running: true })}
                  onOpenLogs={canRun(app) && !app.is_template ? () => setConsoleOpen(true) : undefined}
                />
              )}
            </Box>
            {aside && (
              <Box w={{ base: '100%', md: 340 }} style={{ flexShrink: 0 }}>
                {aside}
              </Box>
            )}
          </Flex>
        </>
      )}
    </Stack>
  );
}
