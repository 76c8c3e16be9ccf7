import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { setTimeout as realTimeout } from 'node:timers/promises';
import { describe, expect, it, onTestFinished, vi } from 'vitest';

import { LATEST_LOGS_LIMIT, LATEST_LOGS_MAX, WORKFLOW_POLL_MS } from '@/config/constants';
import { MORE_LOGS_NOTE } from '@/features/workflows/api/get-latest-logs';
import { LatestLogs } from '@/features/workflows/components/latest-logs';
import { TaskGrid } from '@/features/workflows/components/task-grid';
import type { TaskLog, TaskState } from '@/lib/api/types';
import { advance, installManualClock, settle } from '@/testing/clock';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderInProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { makeTask, makeWorkflow } from '@/testing/workflows';

/** A log as `latest` sends it: an earlier try (not the task's current one) has no state. */
const log = (run: string, task: string, tryNumber: number, content: string, state: TaskLog['state'] = 'success'): TaskLog => ({
  dag_run_id: run,
  task_id: task,
  try_number: tryNumber,
  state,
  content,
  archived: false,
});

/**
 * Like `settle`, but each round moves the fake clock 1 ms: a poll's answer reaches the screen only
 * once the clock moves on (a timer set while the answer resolves). At most 200 ms of fake time,
 * far below the next poll.
 */
async function tick(check: () => void) {
  for (let round = 0; ; round += 1) {
    await advance(1);
    try {
      check();
      return;
    } catch (error) {
      if (round >= 200) throw error;
    }
    await realTimeout(10);
  }
}

describe('the task grid follows a run', () => {
  it(`asks again every ${WORKFLOW_POLL_MS} ms while a task is queued or running, and stops once all have finished`, async () => {
    signIn();
    installManualClock();
    const states: TaskState[][] = [
      ['running', 'queued'],
      ['success', 'running'],
      ['success', 'failed'],
    ];
    let answered = 0;
    const calls = mockFetch(
      on('GET', '/v2/workflows/tasks/w1/run-1', () => {
        const now = states[Math.min(answered, states.length - 1)];
        answered += 1;
        return { body: { success: true, task_instances: [makeTask({ task_id: 'a', state: now[0] }), makeTask({ task_id: 'b', state: now[1] })], total: 2 } };
      }),
    );
    renderInProviders(<TaskGrid workflow={makeWorkflow({ id: 'w1' })} dagRunId="run-1" />);
    const stateOf = (t: string) => screen.getAllByTestId('task-row').find((r) => r.dataset.task === t)?.dataset.state;
    await settle(() => expect([stateOf('a'), stateOf('b')]).toEqual(['running', 'queued']));
    await advance(WORKFLOW_POLL_MS);
    await tick(() => expect([stateOf('a'), stateOf('b')]).toEqual(['success', 'running']));
    await advance(WORKFLOW_POLL_MS);
    await tick(() => expect([stateOf('a'), stateOf('b')]).toEqual(['success', 'failed']));
    expect(calls).toHaveLength(3);
    await advance(WORKFLOW_POLL_MS * 5);
    expect(calls).toHaveLength(3);
  });
});

describe('latest logs', () => {
  it(`shows every try of the newest ${LATEST_LOGS_LIMIT} runs, and downloads all runs' logs as a text file`, async () => {
    signIn();
    const saved: Blob[] = [];
    const { createObjectURL, revokeObjectURL } = URL;
    Object.assign(URL, { createObjectURL: (b: Blob) => (saved.push(b), 'blob:logs'), revokeObjectURL: () => {} });
    onTestFinished(() => void Object.assign(URL, { createObjectURL, revokeObjectURL }));
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.download);
    });
    const calls = mockFetch(
      on('POST', '/v2/workflows/latest/w1', (c) => ({
        body: {
          success: true,
          logs:
            (c.body as { limit: unknown }).limit === 'all'
              ? [log('run-2', 'a', 2, 'newest'), log('run-2', 'a', 1, 'first try', null), log('run-1', 'a', 1, 'oldest')]
              : [log('run-2', 'a', 2, 'newest'), log('run-2', 'a', 1, 'first try', null)],
        },
      })),
    );
    renderInProviders(<LatestLogs workflowId="w1" workflowName="Nightly" />);
    fireEvent.click(screen.getByRole('button', { name: 'Latest logs' }));
    const dialog = await screen.findByRole('dialog', { name: `Logs of the latest ${LATEST_LOGS_LIMIT} runs` });
    expect(await within(dialog).findByTestId('latest-logs')).toHaveTextContent('run run-2 · task a · try 2 · success =====');
    // An earlier try has no state: none is written.
    expect(within(dialog).getByTestId('latest-logs')).toHaveTextContent('run run-2 · task a · try 1 =====');
    expect(within(dialog).getByTestId('latest-logs')).toHaveTextContent('newest');

    fireEvent.click(screen.getByRole('button', { name: 'Download all', hidden: true }));
    await waitFor(() => expect(clicked).toEqual(['Nightly-logs.txt']));
    expect(calls.map((c) => c.body)).toEqual([{ limit: LATEST_LOGS_LIMIT }, { limit: 'all' }]);
    const text = await saved[0].text();
    expect(text).toContain('newest');
    expect(text).toContain('oldest');
    expect(text).not.toContain(MORE_LOGS_NOTE);
    click.mockRestore();
  });

  it(`says so when the answer is full (the API sends at most ${LATEST_LOGS_MAX} logs)`, async () => {
    signIn();
    const full = Array.from({ length: LATEST_LOGS_MAX }, (_, i) => log(`run-${i}`, 'a', 1, `log ${i}`));
    mockFetch(on('POST', '/v2/workflows/latest/w1', { body: { success: true, logs: full } }));
    renderInProviders(<LatestLogs workflowId="w1" workflowName="Nightly" />);
    fireEvent.click(screen.getByRole('button', { name: 'Latest logs' }));
    const dialog = await screen.findByRole('dialog', { name: `Logs of the latest ${LATEST_LOGS_LIMIT} runs` });
    expect(await within(dialog).findByTestId('latest-logs')).toHaveTextContent(MORE_LOGS_NOTE);
  });
});
