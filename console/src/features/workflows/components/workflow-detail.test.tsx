import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { LogToolsContext } from '@/components/log-viewer/log-tools';
import { WorkflowDetail } from '@/features/workflows/components/workflow-detail';
import type { TaskInstance, WorkflowView } from '@/lib/api/types';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';
import { type Handler, type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { expectTooltip } from '@/testing/project-workspace';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';
import { makeRun, makeTask, makeWorkflow, sharedWorkflow } from '@/testing/workflows';

const settledRuns = { success: true, runs: [makeRun({ dag_run_id: 'run-2', state: 'failed', duration: 75 }), makeRun({ dag_run_id: 'run-1', state: 'success' })], page: 1, total: 2, total_pages: 1 };

function api(workflow: WorkflowView, tasks: TaskInstance[], ...more: Handler[]) {
  return mockFetch(
    ...more,
    on('GET', `/v2/workflows/${workflow.id}`, { body: { success: true, workflow } }),
    on('GET', `/v2/workflows/runs/${workflow.id}`, { body: settledRuns }),
    on('GET', /^\/v2\/workflows\/tasks\/[^/]+\/[^/]+$/, (c) => ({
      body: { success: true, task_instances: tasks.map((t) => ({ ...t, dag_run_id: c.url.split('?')[0].split('/').pop()! })), total: tasks.length },
    })),
  );
}

const diamond = [
  makeTask({ task_id: 'extract', state: 'success' }),
  makeTask({ task_id: 'train', state: 'failed', try_number: 2 }),
  makeTask({ task_id: 'report', state: 'upstream_failed', try_number: 0 }),
];

const render = (id: string) => renderWithProviders(<WorkflowDetail id={id} onShare={() => {}} />, { url: `/workflows/${id}`, path: '/workflows/:id' });
const taskRow = (id: string) => screen.getByRole('row', { name: new RegExp(`^Select ${id}\\b|\\b${id}\\b`) });
const paths = (calls: MockCall[], method: string) => calls.filter((c) => c.method === method).map((c) => c.url);

describe('workflow detail', () => {
  it('links to the project and the designer, shows the runs (10 a page) and the newest run’s tasks coloured by state', async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1', name: 'Nightly', project_name: 'Forecast' });
    const calls = api(w, diamond);
    render('w1');
    expect(await screen.findByRole('heading', { name: 'Nightly' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Project: Forecast' })).toHaveAttribute('href', '/projectsv2/p1');
    expect(screen.getByRole('link', { name: 'Designer' })).toHaveAttribute('href', '/visual-workflows/w1');
    expect(screen.getByRole('link', { name: 'Workflows' })).toHaveAttribute('href', '/workflows');
    const grid = await screen.findByTestId('task-grid');
    expect(within(grid).getAllByTestId('task-row').map((r) => [r.dataset.task, r.dataset.state])).toEqual([
      ['extract', 'success'],
      ['train', 'failed'],
      ['report', 'upstream_failed'],
    ]);
    const runsCall = calls.find((c) => c.url.startsWith('/v2/workflows/runs/w1'))!;
    expect(Object.fromEntries(new URL(runsCall.url, 'http://x').searchParams)).toEqual({ page: '1', limit: '10' });
    // The newest run is shown first; another run shows its own tasks.
    expect(paths(calls, 'GET').some((u) => u.startsWith('/v2/workflows/tasks/w1/run-2'))).toBe(true);
    await user().click(screen.getByRole('button', { name: 'Show the tasks of run-1' }));
    expect(await screen.findByText('Tasks of run-1')).toBeInTheDocument();
    expect(screen.getByText('1m 15s')).toBeInTheDocument();
  });

  it("says what a run waits for: the organization's quota", async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1', name: 'Nightly' });
    const waiting = "waiting for the organization's quota: exceeded quota: ludis-quota, requested: requests.cpu=500m";
    const runs = { ...settledRuns, runs: [makeRun({ dag_run_id: 'run-3', state: 'running', waiting }), ...settledRuns.runs] };
    api(w, diamond, on('GET', '/v2/workflows/runs/w1', { body: runs }));
    render('w1');
    const row = await screen.findByRole('row', { name: /^run-3/ });
    expect(within(row).getByRole('status')).toHaveTextContent(waiting);
  });

  it("runs now with 'Workflow run successful!'; a 409 says the API's reason and reloads the workflow; another refusal says 'Workflow run failed'", async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1', name: 'Nightly' });
    let answer: 'ok' | 'not_ready' | 'error' = 'ok';
    const calls = api(
      w,
      [],
      on('POST', '/v2/workflows/run/w1', () =>
        answer === 'ok'
          ? { body: { success: true, dag_run_id: 'run-3', message: 'Workflow run successful!' } }
          : answer === 'not_ready'
            ? { status: 409, body: { success: false, code: 'not_ready', message: 'Please publish or wait for workflow to be initialized' } }
            : { status: 500, body: { success: false, code: 'internal', message: 'cluster unreachable' } },
      ),
    );
    render('w1');
    await user().click(await screen.findByRole('button', { name: 'Run now' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.runOk)).toBeInTheDocument();
    const detailGets = () => paths(calls, 'GET').filter((u) => u === '/v2/workflows/w1').length;
    const before = detailGets();
    answer = 'not_ready';
    await user().click(screen.getByRole('button', { name: 'Run now' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.notReady)).toBeInTheDocument();
    await waitFor(() => expect(detailGets()).toBeGreaterThan(before));
    answer = 'error';
    await user().click(screen.getByRole('button', { name: 'Run now' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.runFailed)).toBeInTheDocument();
    expect(paths(calls, 'POST')).toEqual(['/v2/workflows/run/w1', '/v2/workflows/run/w1', '/v2/workflows/run/w1']);
  });

  it("says the API's 409 when the task is in that state already, and reloads the grid", async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1', name: 'Nightly' });
    const calls = api(w, diamond, on('PATCH', '/v2/workflows/mark/w1', { status: 409, body: { success: false, code: 'already_in_state', message: 'The task is success already' } }));
    render('w1');
    await screen.findByTestId('task-grid');
    const taskGets = () => paths(calls, 'GET').filter((u) => u.startsWith('/v2/workflows/tasks/w1/run-2')).length;
    const before = taskGets();
    await user().click(screen.getByRole('button', { name: 'Mark State As: train' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Success', hidden: true }));
    expect(await screen.findByText('The task is success already')).toBeInTheDocument();
    await waitFor(() => expect(taskGets()).toBeGreaterThan(before));
  });

  it("marks a failed task success ('Mark State As', the current state disabled) and re-runs downstream", async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1', name: 'Nightly' });
    const calls = api(
      w,
      diamond,
      on('PATCH', '/v2/workflows/mark/w1', { body: { success: true, message: 'Task update successful!' } }),
      on('POST', '/v2/workflows/clear/w1', { body: { success: true, message: 'Task Successfully Cleared' } }),
    );
    render('w1');
    await screen.findByTestId('task-grid');
    await user().click(screen.getByRole('button', { name: 'Mark State As: train' }));
    expect(await screen.findByRole('menuitem', { name: 'Failed', hidden: true })).toBeDisabled();
    await user().click(screen.getByRole('menuitem', { name: 'Success', hidden: true }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.taskUpdated)).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ state: 'success', dagRunId: 'run-2', taskId: 'train' });

    await user().click(screen.getByRole('button', { name: 'Mark State As: extract' }));
    expect(await screen.findByRole('menuitem', { name: 'Success', hidden: true })).toBeDisabled();
    await user().keyboard('{Escape}');

    await user().click(screen.getByRole('button', { name: 'Re-run with downstream' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.selectTask)).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/v2/workflows/clear/w1')).toBe(false);
    await user().click(screen.getByRole('checkbox', { name: 'Select train' }));
    await user().click(screen.getByRole('button', { name: 'Re-run with downstream' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.taskCleared)).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/v2/workflows/clear/w1')?.body).toEqual({ task_ids: ['train'], dag_run_id: 'run-2', include_downstream: true });
  });

  it("shows a task's log per try, and 'No Logs available for this task' for try 0", async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1' });
    const calls = api(
      w,
      diamond,
      on('GET', /^\/v2\/workflows\/tasks\/w1\/run-2\/train\/\d$/, (c) => {
        const tryNumber = Number(c.url.split('/').pop());
        // The run keeps only the current try's state: an earlier try's is null.
        return { body: { success: true, log: { dag_run_id: 'run-2', task_id: 'train', try_number: tryNumber, state: tryNumber === 2 ? 'failed' : null, content: `try ${tryNumber} output`, archived: tryNumber === 1 } } };
      }),
    );
    render('w1');
    await screen.findByTestId('task-grid');
    await user().click(screen.getByRole('button', { name: 'Logs of train' }));
    const dialog = await screen.findByRole('dialog', { name: 'Logs: train' });
    expect(await within(dialog).findByText('try 2 output')).toBeInTheDocument();
    await user().click(within(dialog).getByText('Try 1'));
    expect(await within(dialog).findByText('try 1 output')).toBeInTheDocument();
    expect(within(dialog).getByText('archived')).toBeInTheDocument();
    await user().keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());

    await user().click(screen.getByRole('button', { name: 'Logs of report' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.noLogs)).toBeInTheDocument();
    expect(calls.some((c) => c.url.includes('/report/'))).toBe(false);
  });

  it("offers the app layer's log tools (the log summary) over a task's log lines", async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1' });
    api(
      w,
      diamond,
      on('GET', /^\/v2\/workflows\/tasks\/w1\/run-2\/train\/\d$/, {
        body: { success: true, log: { dag_run_id: 'run-2', task_id: 'train', try_number: 2, state: 'failed', content: 'line 1\nline 2\n', archived: false } },
      }),
    );
    const seen: { id: string; lines: string[] }[] = [];
    renderWithProviders(
      <LogToolsContext
        value={(c) => {
          seen.push(c);
          return <button type="button">Summarize</button>;
        }}
      >
        <WorkflowDetail id="w1" onShare={() => {}} />
      </LogToolsContext>,
      { url: '/workflows/w1', path: '/workflows/:id' },
    );
    await screen.findByTestId('task-grid');
    await user().click(screen.getByRole('button', { name: 'Logs of train' }));
    const dialog = await screen.findByRole('dialog', { name: 'Logs: train' });
    expect(await within(dialog).findByRole('button', { name: 'Summarize' })).toBeInTheDocument();
    expect(seen.at(-1)).toEqual({ id: 'w1', lines: ['line 1', 'line 2'] });
  });

  it("says 'Unable to fetch task instances' when the grid cannot load", async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1' });
    mockFetch(
      on('GET', /^\/v2\/workflows\/tasks\//, { status: 500, body: { success: false, code: 'internal', message: 'cluster unreachable' } }),
      on('GET', '/v2/workflows/w1', { body: { success: true, workflow: w } }),
      on('GET', '/v2/workflows/runs/w1', { body: settledRuns }),
    );
    render('w1');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(WORKFLOW_MESSAGES.tasksFailed);
    expect(alert).toHaveTextContent('cluster unreachable');
  });

  it('shows a broken workflow’s import error in full', async () => {
    signIn();
    const error = 'Traceback (most recent call last):\n  File "w1_dag.py", line 1, in <module>\nImportError: cannot import name \'Sensor\'';
    api(makeWorkflow({ id: 'w1', visual: false, status: 'broken', import_error: error, dag_file: 'w1_dag.py' }), []);
    render('w1');
    expect((await screen.findByTestId('import-error')).textContent).toBe(error);
    // Not ready: Run now says why.
    await expectTooltip(screen.getByRole('button', { name: 'Run now' }), WORKFLOW_MESSAGES.notReady);
  });

  it('below execute, run, toggle, schedule, mark and re-run are disabled with the spec’s tooltips', async () => {
    signIn();
    const calls = api(sharedWorkflow('view', { id: 'w1', name: 'Shared' }), diamond);
    render('w1');
    await screen.findByTestId('task-grid');
    await expectTooltip(screen.getByRole('button', { name: 'Run now' }), WORKFLOW_MESSAGES.executeOrEdit);
    await expectTooltip(screen.getByRole('button', { name: 'Save schedule' }), WORKFLOW_MESSAGES.executeOrEdit);
    expect(screen.getByRole('switch', { name: 'Active' })).toBeDisabled();
    await expectTooltip(screen.getByRole('button', { name: 'Re-run with downstream' }), WORKFLOW_MESSAGES.executeNeeded);
    await expectTooltip(within(taskRow('train')).getByRole('button', { name: 'Mark State As' }), WORKFLOW_MESSAGES.executeNeeded);
    // Logs need execute access too (the API answers a viewer 403).
    await expectTooltip(screen.getByRole('button', { name: 'Logs of train' }), WORKFLOW_MESSAGES.executeNeeded);
    await expectTooltip(screen.getByRole('button', { name: 'Latest logs' }), WORKFLOW_MESSAGES.executeNeeded);
    await expectTooltip(screen.getByRole('button', { name: 'Download all' }), WORKFLOW_MESSAGES.executeNeeded);
    await user().click(screen.getByRole('button', { name: 'Run now' }));
    await user().click(screen.getByRole('button', { name: 'Save schedule' }));
    await user().click(screen.getByRole('button', { name: 'Logs of train' }));
    await user().click(screen.getByRole('button', { name: 'Download all' }));
    expect(paths(calls, 'POST')).toEqual([]);
    expect(paths(calls, 'GET').filter((u) => /\/v2\/workflows\/tasks\/w1\/run-2\/train\//.test(u))).toEqual([]);
  });

  it("saves the schedule as a UTC cron from days and a time in the user's zone (days move across midnight)", async () => {
    signIn({ timezone: 'Asia/Tokyo' });
    let fail = false;
    const calls = api(
      makeWorkflow({ id: 'w1', schedule: 'None' }),
      [],
      on('POST', '/v2/workflows/schedule/w1', (c) =>
        fail ? { status: 400, body: { success: false, code: 'invalid_schedule', message: 'bad cron' } } : { body: { success: true, schedule: (c.body as { value: string }).value, message: 'Updated Schedule Successfully' } },
      ),
    );
    render('w1');
    const editor = await screen.findByTestId('schedule-editor');
    expect(within(editor).getByRole('checkbox', { name: 'No Schedule' })).toBeChecked();
    await user().click(within(editor).getByRole('checkbox', { name: 'Sun' }));
    await user().click(within(editor).getByRole('checkbox', { name: 'Mon' }));
    fireEvent.change(within(editor).getByLabelText('Time (Asia/Tokyo)'), { target: { value: '08:00' } });
    await user().click(within(editor).getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.scheduleUpdated)).toBeInTheDocument();
    // Tokyo 08:00 is 23:00 UTC the day before: Sunday → Saturday, Monday → Sunday.
    expect(calls.find((c) => c.url === '/v2/workflows/schedule/w1')?.body).toEqual({ value: '0 23 * * 0,6', project_id: 'p1' });
    const saved = await screen.findByTestId('schedule-editor');
    expect(saved).toHaveTextContent('Sun, Mon at 08:00');

    fail = true;
    await user().click(within(saved).getByRole('checkbox', { name: 'No Schedule' }));
    await user().click(within(saved).getByRole('button', { name: 'Save schedule' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.scheduleFailed)).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/v2/workflows/schedule/w1').at(-1)?.body).toEqual({ value: 'None', project_id: 'p1' });
  });
});
