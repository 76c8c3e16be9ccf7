import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { PREVIEW_CHECK_MS } from '@/config/constants';
import type { PreviewState } from '@/lib/api/types';
import { advance, installManualClock, settle } from '@/testing/clock';
import { installFakeWebSocket } from '@/testing/fake-websocket';
import { on } from '@/testing/fetch-mock';
import { item, makeProject, running, sharedProject, STOPPED } from '@/testing/projects';
import { expectTooltip, renderWorkspace } from '@/testing/project-workspace';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const tool = (name: string) => within(screen.getByRole('toolbar', { name: 'Project tools' })).getByRole('button', { name });
const blocked = (name: string) => expect(tool(name)).toHaveAttribute('aria-disabled', 'true');
const usable = (name: string) => expect(tool(name)).not.toHaveAttribute('aria-disabled');

const imageSelect = () => screen.getByLabelText('Docker image', { selector: 'input:not([type=hidden])' });

async function ready() {
  await screen.findByRole('toolbar', { name: 'Project tools' });
}

describe('workspace toolbar: every control by access level and run state (spec 001 §6)', () => {
  it("view: run, commit, web view, secrets, logs, terminal, publish disabled with the spec's tooltips", async () => {
    signIn();
    renderWorkspace(sharedProject('view', { id: 'p1' }), { preview: running('p1') });
    await ready();
    for (const name of ['Stop', 'Commit', 'Web view', 'Secrets', 'Logs', 'Terminal', 'AI assistant']) blocked(name);
    await expectTooltip(tool('Stop'), 'You need execute or edit access');
    await expectTooltip(tool('Logs'), 'You need execute or edit access');
    await expectTooltip(tool('Terminal'), 'You need execute or edit access');
    await expectTooltip(tool('Web view'), 'You need execute or edit access');
    await expectTooltip(tool('Commit'), 'You need edit access');
    await expectTooltip(tool('Secrets'), 'You need edit access');
    await expectTooltip(screen.getByRole('button', { name: 'Publish' }), 'You need execute or edit access');
    expect(screen.getByRole('button', { name: 'Publish' })).toHaveAttribute('aria-disabled', 'true');
    expect(imageSelect()).toBeDisabled();
    // Adding and deleting files need edit access too.
    expect(await screen.findByRole('button', { name: 'Add file' })).toHaveAttribute('aria-disabled', 'true');
    expect(await screen.findByRole('button', { name: 'Delete app.py' })).toHaveAttribute('aria-disabled', 'true');
    // Clicking does nothing.
    await user().click(tool('Logs'));
    expect(screen.queryByRole('complementary', { name: 'Dev tools' })).not.toBeInTheDocument();
  });

  it("execute, not running: may run; web view, logs and terminal say 'Please run your code …'", async () => {
    signIn();
    renderWorkspace(sharedProject('execute', { id: 'p1' }), { preview: STOPPED });
    await ready();
    usable('Run');
    await expectTooltip(tool('Web view'), 'Please run your code to see web view');
    await expectTooltip(tool('Logs'), 'Please run your code to see logs');
    await expectTooltip(tool('Terminal'), 'Please run your code to use the terminal');
    await expectTooltip(tool('Secrets'), 'You need edit access');
    await expectTooltip(screen.getByRole('button', { name: 'Publish' }), 'You need edit access');
  });

  it('execute, running: logs, terminal and web view work; stop', async () => {
    signIn();
    installFakeWebSocket();
    const open = vi.spyOn(window, 'open').mockReturnValue(null);
    const { calls } = renderWorkspace(sharedProject('execute', { id: 'p1' }), {
      preview: running('p1'),
      handlers: [on('POST', '/v2/projects/stop/p1', { body: { success: true, preview: STOPPED } })],
    });
    await ready();
    for (const name of ['Web view', 'Logs', 'Terminal', 'Stop']) usable(name);
    await user().click(tool('Web view'));
    expect(open).toHaveBeenCalledWith('https://p-p1.apps.example/?ticket=t1', '_blank', 'noopener,noreferrer');
    await user().click(tool('Stop'));
    await waitFor(() => usable('Run'));
    expect(calls.filter((c) => c.url === '/v2/projects/stop/p1')).toHaveLength(1);
    blocked('Logs');
    open.mockRestore();
  });

  it('edit, stopped: everything but the container tools; no AI assistant without its panel', async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }));
    await ready();
    usable('Run');
    usable('Secrets');
    expect(screen.getByRole('button', { name: 'Publish' })).not.toHaveAttribute('aria-disabled');
    await expectTooltip(tool('Commit'), 'Open a file to commit it');
    await expectTooltip(tool('AI assistant'), 'The AI assistant is not available here');
    expect(imageSelect()).not.toBeDisabled();
  });

  it('the AI assistant opens its chat panel about the project and the open file, for a viewer too', async () => {
    signIn();
    const asked: { projectId: string; file: string | null }[] = [];
    renderWorkspace(sharedProject('view', { id: 'p1' }), {
      slots: {
        aiChat: (c) => {
          asked.push(c);
          return <p>chat about {c.file ?? 'nothing'}</p>;
        },
      },
    });
    await ready();
    usable('AI assistant');
    await user().click(tool('AI assistant'));
    const panel = await screen.findByRole('region', { name: 'AI chat' });
    expect(panel).toHaveTextContent('chat about nothing');
    expect(tool('AI assistant')).toHaveAttribute('aria-pressed', 'true');
    await user().click(await screen.findByRole('button', { name: 'app.py' }));
    await waitFor(() => expect(panel).toHaveTextContent('chat about app.py'));
    expect(asked.at(-1)).toEqual({ projectId: 'p1', file: 'app.py' });
  });

  it('run: starts the preview, checks it every 2 s while starting, and the container tools open up once it runs', async () => {
    signIn();
    installManualClock();
    let checks = 0;
    const starting: PreviewState = { running: false, status: 'starting', message: null, file: null, container_id: null, web_url: null, port: null, idle: null };
    const { calls } = renderWorkspace(makeProject({ id: 'p1' }), {
      handlers: [
        on('POST', '/v2/projects/run/p1', { body: { success: true, preview: starting } }),
        on('GET', '/v2/projects/check/p1', () => {
          checks += 1;
          return { body: { success: true, preview: checks < 2 ? starting : running('p1') } };
        }),
      ],
    });
    await settle(() => expect(screen.getByRole('toolbar', { name: 'Project tools' })).toBeInTheDocument());
    fireEvent.click(tool('Run'));
    await settle(() => expect(tool('Starting… Stop')).toBeInTheDocument());
    expect(screen.getByLabelText('Preview status')).toHaveTextContent('starting');
    await settle(() => expect(checks).toBe(1));
    const first = calls.find((c) => c.url === '/v2/projects/check/p1')!;
    await advance(PREVIEW_CHECK_MS - 1);
    expect(checks).toBe(1);
    await advance(1);
    await settle(() => expect(checks).toBe(2));
    // TanStack Query tells the page on a 0 ms timer (1 ms on this clock).
    await advance(1);
    await settle(() => expect(screen.getByLabelText('Preview status')).toHaveTextContent('running'));
    const second = calls.filter((c) => c.url === '/v2/projects/check/p1')[1];
    expect(second.at - first.at).toBe(PREVIEW_CHECK_MS);
    usable('Logs');
    usable('Terminal');
    usable('Web view');
    // Running: no more checks.
    await advance(PREVIEW_CHECK_MS * 3);
    expect(checks).toBe(2);
  });

  it('shows why the preview failed, with its last log lines and a way to its log', async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }), {
      preview: { running: true, status: 'failed', message: 'the checkout of the project\'s repository failed (exit code 128)', file: null, container_id: null, web_url: null, port: null, idle: null },
      failureLog: ['fatal: repository not found'],
    });
    const alert = await screen.findByRole('alert', { name: /The preview failed/ });
    expect(alert).toHaveTextContent("the checkout of the project's repository failed (exit code 128)");
    expect(within(alert).getByLabelText('Last log lines')).toHaveTextContent('fatal: repository not found');
    await user().click(within(alert).getByRole('button', { name: 'Open the logs' }));
    expect(screen.getByRole('button', { name: 'Logs' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows beside Run what it runs, and runs the file chosen there', async () => {
    signIn();
    const streamlit = { file: 'dash.py', runner: 'streamlit', framework: 'Streamlit', command: 'streamlit run dash.py', serves: true, candidates: [] };
    const { calls } = renderWorkspace(makeProject({ id: 'p1' }), {
      repo: { '': [item('app.py'), item('dash.py'), item('README.md')], 'app.py': 'print(1)\n', 'dash.py': 'import streamlit\n' },
      handlers: [
        on('GET', '/v2/projects/launch/p1', (c) =>
          c.url.includes('file=dash.py')
            ? { body: streamlit }
            : { body: { file: 'app.py', runner: 'python', framework: 'Python', command: 'python app.py', serves: false, candidates: ['app.py'] } },
        ),
        on('POST', '/v2/projects/run/p1', { body: { success: true, preview: { ...STOPPED, running: true, status: 'starting', file: 'dash.py' } } }),
      ],
    });
    const launch = await screen.findByRole('group', { name: 'What Run runs' });
    await waitFor(() => expect(within(launch).getByLabelText('Command')).toHaveTextContent('python app.py'));
    await user().click(within(launch).getByLabelText('File to run', { selector: 'input:not([type=hidden])' }));
    // Only files Run can start are offered.
    expect(screen.queryByRole('option', { name: 'README.md', hidden: true })).not.toBeInTheDocument();
    await user().click(await screen.findByRole('option', { name: 'dash.py', hidden: true }));
    await waitFor(() => expect(within(launch).getByLabelText('Command')).toHaveTextContent('streamlit run dash.py'));
    expect(within(launch).getByText('Streamlit')).toBeInTheDocument();
    await user().click(tool('Run'));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.url === '/v2/projects/run/p1?file=dash.py')).toBe(true));
  });

  it('says what a waiting preview waits for', async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }), {
      preview: { running: true, status: 'starting', message: 'waiting for a node: 0/2 nodes are available: 1 Insufficient cpu.', file: null, container_id: null, web_url: null, port: null, idle: null },
    });
    expect(await screen.findByRole('status', { name: /The preview is waiting/ })).toHaveTextContent('1 Insufficient cpu');
  });

  it("saves the image choice with PUT {entity:{image_id}} and 'Project updated!'", async () => {
    signIn();
    const { calls } = renderWorkspace(makeProject({ id: 'p1', image_id: 'python-data' }), {
      handlers: [on('PUT', '/v2/projects/p1', (c) => ({ body: { success: true, project: makeProject({ id: 'p1', image_id: (c.body as { entity: { image_id: string } }).entity.image_id }) } }))],
    });
    const select = await screen.findByLabelText('Docker image', { selector: 'input:not([type=hidden])' });
    await waitFor(() => expect(select).toHaveValue('Python 3.12 (data stack)'));
    await user().click(select);
    await user().click(await screen.findByRole('option', { name: 'R 4.4 (tidyverse)', hidden: true }));
    expect(await screen.findByText('Project updated!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ entity: { image_id: 'r-base' } });
    await waitFor(() => expect(select).toHaveValue('R 4.4 (tidyverse)'));
  });
});

describe('size selector', () => {
  it('saves the size with PUT {entity:{size_id}}, and the default as an empty one', async () => {
    signIn();
    const { calls } = renderWorkspace(makeProject({ id: 'p1', size_id: 'large' }), {
      handlers: [
        on('PUT', '/v2/projects/p1', (c) => {
          const sizeId = (c.body as { entity: { size_id: string } }).entity.size_id;
          return { body: { success: true, project: makeProject({ id: 'p1', size_id: sizeId || null }) } };
        }),
      ],
    });
    const select = await screen.findByLabelText('Hardware size', { selector: 'input:not([type=hidden])' });
    await waitFor(() => expect(select).toHaveValue('large · 1.5–2 CPU · 4Gi memory · 8Gi disk'));
    await user().click(select);
    await user().click(await screen.findByRole('option', { name: 'Default (medium · 0.5–2 CPU · 1Gi memory · 4Gi disk)', hidden: true }));
    expect(await screen.findByText('Project updated!')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ entity: { size_id: '' } }]);
    await waitFor(() => expect(select).toHaveValue('Default (medium · 0.5–2 CPU · 1Gi memory · 4Gi disk)'));
  });
});

describe('dev tools panel', () => {
  it('opens secrets, logs and terminal side by side, splitting the height 100 / 50 / 33.33 %', async () => {
    signIn();
    installFakeWebSocket();
    renderWorkspace(makeProject({ id: 'p1' }), {
      preview: running('p1'),
      handlers: [on('GET', '/v2/projects/envvar', { body: { success: true, envVariables: [] } })],
    });
    await ready();
    await user().click(tool('Secrets'));
    const tools = await screen.findByRole('complementary', { name: 'Dev tools' });
    const heights = () => within(tools).getAllByRole('region').map((r) => r.getAttribute('data-height'));
    expect(heights()).toEqual(['100%']);
    expect(tool('Secrets')).toHaveAttribute('aria-pressed', 'true');
    await user().click(tool('Logs'));
    expect(heights()).toEqual(['50%', '50%']);
    await user().click(tool('Terminal'));
    expect(heights()).toEqual(['33.33%', '33.33%', '33.33%']);
    expect(within(tools).getAllByRole('region').map((r) => r.getAttribute('aria-label'))).toEqual(['Env vars', 'Logs', 'Terminal']);
    expect(await within(tools).findByRole('group', { name: 'Terminal' })).toBeInTheDocument();
    await user().click(within(tools).getByRole('button', { name: 'Close Logs' }));
    expect(heights()).toEqual(['50%', '50%']);
    await user().click(tool('Secrets'));
    await user().click(tool('Terminal'));
    expect(screen.queryByRole('complementary', { name: 'Dev tools' })).not.toBeInTheDocument();
  });

  it('resizes the file navigator (250 px, 120–500) and the dev tools (500 px, 200–550) within their limits', async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }), { handlers: [on('GET', '/v2/projects/envvar', { body: { success: true, envVariables: [] } })] });
    await ready();
    const nav = screen.getByRole('separator', { name: 'Resize file navigator' });
    expect(nav).toHaveAttribute('aria-valuenow', '250');
    expect(nav).toHaveAttribute('aria-valuemin', '120');
    expect(nav).toHaveAttribute('aria-valuemax', '500');
    fireEvent.keyDown(nav, { key: 'ArrowRight' });
    expect(nav).toHaveAttribute('aria-valuenow', '260');
    fireEvent.keyDown(nav, { key: 'End' });
    expect(nav).toHaveAttribute('aria-valuenow', '500');
    fireEvent.keyDown(nav, { key: 'ArrowRight' });
    expect(nav).toHaveAttribute('aria-valuenow', '500');
    fireEvent.keyDown(nav, { key: 'Home' });
    expect(nav).toHaveAttribute('aria-valuenow', '120');
    // Dragging: the navigator grows to the right.
    fireEvent.pointerDown(nav, { clientX: 100, pointerId: 1 });
    fireEvent.pointerMove(nav, { clientX: 160, pointerId: 1 });
    fireEvent.pointerUp(nav, { pointerId: 1 });
    expect(nav).toHaveAttribute('aria-valuenow', '180');
    expect(screen.getByRole('navigation', { name: 'Project panels' })).toHaveStyle({ width: '180px' });

    await user().click(tool('Secrets'));
    const tools = screen.getByRole('separator', { name: 'Resize dev tools' });
    expect(tools).toHaveAttribute('aria-valuenow', '500');
    // The panel is on the right: moving the handle left widens it.
    fireEvent.keyDown(tools, { key: 'ArrowLeft' });
    fireEvent.keyDown(tools, { key: 'ArrowLeft' });
    expect(tools).toHaveAttribute('aria-valuenow', '520');
    fireEvent.pointerDown(tools, { clientX: 500, pointerId: 2 });
    fireEvent.pointerMove(tools, { clientX: 900, pointerId: 2 });
    expect(tools).toHaveAttribute('aria-valuenow', '200');
    fireEvent.pointerMove(tools, { clientX: 0, pointerId: 2 });
    expect(tools).toHaveAttribute('aria-valuenow', '550');
  });
});
