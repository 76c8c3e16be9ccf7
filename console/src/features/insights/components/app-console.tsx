import { Center, Drawer, Loader, Tabs, Text } from '@mantine/core';
import { lazy, type ReactNode, Suspense, useState } from 'react';

import { LogViewer, MISSING_IDS } from '@/components/log-viewer/log-viewer';
import { CONSOLE_PANEL_WIDTH } from '@/config/constants';
import { useSession } from '@/lib/auth';

/** xterm is its own chunk, loaded when the Terminal tab first opens. */
const ExecTerminal = lazy(() => import('@/components/terminal/exec-terminal').then((m) => ({ default: m.ExecTerminal })));

type Props = {
  /** The application insight whose container is shown (the API finds the pod). */
  id: string;
  name: string;
  /** The app runs now: a viewer whose stream had finished follows the new container. */
  running: boolean;
  opened: boolean;
  onClose: () => void;
  /** Tools over the log's lines (the assistant's log summary). */
  logTools?: (context: { id: string; lines: string[] }) => ReactNode;
};

/**
 * The app's side console (spec 001 §2 "App open page"): Logs and Terminal tabs on the app's
 * container, 500 px wide. Once the app has stopped, the log tab shows its archived log. Shown
 * only to callers with execute access on an app with a container (the API checks it again).
 */
export function AppConsole({ id, name, running, opened, onClose, logTools }: Props) {
  const { user } = useSession();
  const uid = user?.uid ?? '';
  const [tab, setTab] = useState<string | null>('logs');

  return (
    <Drawer opened={opened} onClose={onClose} position="right" size={CONSOLE_PANEL_WIDTH} title={`Console · ${name}`} keepMounted={false}>
      {!uid ? (
        <Text c="red" size="sm">
          {MISSING_IDS}
        </Text>
      ) : (
        <Tabs value={tab} onChange={setTab} keepMounted={false}>
          <Tabs.List>
            <Tabs.Tab value="logs">Logs</Tabs.Tab>
            <Tabs.Tab value="terminal">Terminal</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="logs" pt="xs" h="calc(100dvh - 140px)">
            <LogViewer id={id} uid={uid} running={running} tools={logTools && ((lines) => logTools({ id, lines }))} />
          </Tabs.Panel>
          <Tabs.Panel value="terminal" pt="xs" h="calc(100dvh - 140px)">
            <Suspense
              fallback={
                <Center h="100%" role="status" aria-label="Loading the terminal">
                  <Loader size="sm" />
                </Center>
              }
            >
              <ExecTerminal id={id} uid={uid} />
            </Suspense>
          </Tabs.Panel>
        </Tabs>
      )}
    </Drawer>
  );
}
