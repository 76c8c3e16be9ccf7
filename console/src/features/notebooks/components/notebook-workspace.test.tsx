import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { JUPYTER_CHECK_MS, NOTEBOOK_FRAME_DELAY_MS } from '@/config/constants';
import type { JupyterState } from '@/lib/api/types';
import { NotebookPreview } from '@/features/notebooks/components/notebook-preview';
import { NOTEBOOK_STOPPED, NotebookWorkspace, OPEN_FOR_TERMINAL, startingStep } from '@/features/notebooks/components/notebook-workspace';
import { advance, installManualClock, settle } from '@/testing/clock';
import { installFakeWebSocket } from '@/testing/fake-websocket';
import { type Handler, type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { JUPYTER_RUNNING, JUPYTER_STARTING, JUPYTER_STOPPED, makeNotebook, notebookDetail } from '@/testing/notebooks';
import { expectTooltip } from '@/testing/project-workspace';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const NB = makeNotebook({ id: 'n1', name: 'Explore', path: 'Explore.ipynb', project_id: 'p1' });
const LAB = 'https://p1.apps.example/lab/tree/Explore.ipynb?ticket=t1';
const frame = () => screen.queryByTitle('JupyterLab: Explore');
const opened = (jupyter: JupyterState, iframe: string | null = null) => ({ body: { success: true, iframe, jupyter } });

function renderNotebook(...handlers: Handler[]) {
  const calls = mockFetch(
    ...handlers,
    on('PUT', '/v1/users/u-1/getJupyterDevUrl', { body: { success: true, dev_port: 8888, dev_url: 'https://p1.apps.example/lab?ticket=t2' } }),
  );
  const view = renderWithProviders(<NotebookWorkspace id="n1" />, { url: '/notebooks/n1', path: '/notebooks/:id' });
  return { calls, ...view };
}

const openCalls = (calls: MockCall[]) => calls.filter((c) => c.method === 'POST' && c.url === '/v1/notebook/n1/open');

describe('notebook page (/notebooks/{id})', () => {
  it('says which step it is at', () => {
    expect(startingStep(true, undefined, false)?.label).toBe('Opening the notebook…');
    expect(startingStep(false, JUPYTER_STARTING, false)?.label).toBe('Starting JupyterLab…');
    expect(startingStep(false, JUPYTER_RUNNING, false)?.label).toBe('Loading JupyterLab…');
    expect(startingStep(false, JUPYTER_RUNNING, true)).toBeNull();
    expect(startingStep(false, JUPYTER_STOPPED, false)).toBeNull();
  });

  it('opens once on arrival and shows the JupyterLab frame 5 s after the open call succeeded, never earlier', async () => {
    signIn();
    installManualClock();
    const { calls } = renderNotebook(
      on('GET', '/v1/notebook/detail/n1', { body: notebookDetail(NB, JUPYTER_RUNNING) }),
      on('POST', '/v1/notebook/n1/open', opened(JUPYTER_RUNNING, LAB)),
    );
    await settle(() => expect(screen.getByRole('status', { name: 'Loading JupyterLab…' })).toBeInTheDocument());
    expect(openCalls(calls)).toHaveLength(1);
    await advance(NOTEBOOK_FRAME_DELAY_MS - 1);
    expect(frame()).not.toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading JupyterLab…' })).toBeInTheDocument();
    await advance(1);
    expect(frame()).toHaveAttribute('src', LAB);
    // The dev port (PUT /v1/users/{uid}/getJupyterDevUrl once JupyterLab runs).
    await settle(() => expect(screen.getByLabelText('Dev port')).toHaveTextContent('Dev port 8888'));
    expect(calls.find((c) => c.url === '/v1/users/u-1/getJupyterDevUrl')!.body).toEqual({ project_id: 'p1' });
    // When it stops if nobody uses it.
    expect(screen.getByText(/^JupyterLab stops at .+ if unused$/)).toBeInTheDocument();
    expect(openCalls(calls)).toHaveLength(1);
  });

  it('Stop ends JupyterLab: the frame goes, and Start brings it back', async () => {
    signIn();
    let stopped = false;
    const { calls } = renderNotebook(
      on('GET', '/v1/notebook/detail/n1', () => ({ body: notebookDetail(NB, stopped ? JUPYTER_STOPPED : JUPYTER_RUNNING) })),
      on('POST', '/v1/notebook/n1/open', opened(JUPYTER_RUNNING, LAB)),
      on('POST', '/v1/notebook/n1/stop', () => {
        stopped = true;
        return opened(JUPYTER_STOPPED);
      }),
    );
    const stop = await screen.findByRole('button', { name: 'Stop' });
    await user().click(stop);
    expect(await screen.findByText(NOTEBOOK_STOPPED)).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/v1/notebook/n1/stop')).toHaveLength(1);
    await waitFor(() => expect(screen.getByLabelText('JupyterLab status')).toHaveTextContent('stopped'));
    expect(frame()).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start JupyterLab' })).toBeInTheDocument();
  });

  it('while JupyterLab starts: the progress, the detail asked every 2 s until it runs, then its address in the frame 5 s later', async () => {
    signIn();
    installManualClock();
    let checks = 0;
    const { calls, queryClient } = renderNotebook(
      on('GET', '/v1/notebook/detail/n1', () => {
        checks += 1;
        // Each answer of a running server carries a new one-use ticket.
        return { body: checks < 3 ? notebookDetail(NB, JUPYTER_STARTING) : notebookDetail(NB, JUPYTER_RUNNING, 'edit', `${LAB}&n=${checks}`) };
      }),
      on('POST', '/v1/notebook/n1/open', opened(JUPYTER_STARTING)),
    );
    await settle(() => expect(screen.getByRole('status', { name: 'Starting JupyterLab…' })).toBeInTheDocument());
    expect(screen.getByRole('progressbar', { name: 'Opening progress' })).toBeInTheDocument();
    // The first detail and the one asked again after the open call.
    await settle(() => expect(checks).toBe(2));
    await advance(JUPYTER_CHECK_MS - 1);
    expect(checks).toBe(2);
    await advance(1);
    await settle(() => expect(checks).toBe(3));
    // TanStack Query tells the page on a 0 ms timer (1 ms on this clock).
    await advance(1);
    await settle(() => expect(screen.getByRole('status', { name: 'Loading JupyterLab…' })).toBeInTheDocument());
    await advance(NOTEBOOK_FRAME_DELAY_MS - 1);
    expect(frame()).not.toBeInTheDocument();
    await advance(1);
    expect(frame()).toHaveAttribute('src', `${LAB}&n=3`);
    // Running: no more checks, and the open call was made once.
    await advance(JUPYTER_CHECK_MS * 3);
    expect(checks).toBe(3);
    expect(openCalls(calls)).toHaveLength(1);
    // The detail asked for again (a new ticket) does not reload the frame.
    await queryClient.invalidateQueries();
    await settle(() => expect(checks).toBe(4));
    await advance(NOTEBOOK_FRAME_DELAY_MS);
    expect(frame()).toHaveAttribute('src', `${LAB}&n=3`);
  });

  it('a JupyterLab that failed says so and can be tried again', async () => {
    signIn();
    const failed: JupyterState = { running: false, status: 'failed', dev_port: null, dev_url: null, idle: null };
    const { calls } = renderNotebook(
      on('GET', '/v1/notebook/detail/n1', { body: notebookDetail(NB, failed) }),
      on('POST', '/v1/notebook/n1/open', opened(failed)),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('JupyterLab could not start');
    await user().click(within(alert).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(openCalls(calls)).toHaveLength(2));
  });

  it('view access: the open refusal is shown with the preview, and terminal and commit say why they are off', async () => {
    signIn();
    renderNotebook(
      on('GET', '/v1/notebook/detail/n1', { body: notebookDetail(NB, JUPYTER_STOPPED, 'view') }),
      on('POST', '/v1/notebook/n1/open', { status: 403, body: { success: false, code: 'forbidden', message: 'You need execute access to this project' } }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You need execute access to this project');
    expect(within(alert).queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(within(alert).getByRole('link', { name: 'Preview instead' })).toHaveAttribute('href', '/notebooks/n1/preview');
    expect(screen.getByRole('link', { name: 'Preview' })).toHaveAttribute('href', '/notebooks/n1/preview');
    await expectTooltip(screen.getByRole('button', { name: 'Terminal' }), 'You need execute or edit access');
    await expectTooltip(screen.getByRole('button', { name: 'Commit' }), 'You need edit access');
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('the terminal opens a shell in the project’s container once JupyterLab runs', async () => {
    signIn();
    const sockets = installFakeWebSocket();
    renderNotebook(
      on('GET', '/v1/notebook/detail/n1', { body: notebookDetail(NB, JUPYTER_STARTING) }),
      on('POST', '/v1/notebook/n1/open', opened(JUPYTER_STARTING)),
    );
    await screen.findByRole('status', { name: 'Starting JupyterLab…' });
    await expectTooltip(screen.getByRole('button', { name: 'Terminal' }), OPEN_FOR_TERMINAL);
    expect(sockets.all).toHaveLength(0);
  });

  it('opens the terminal drawer with a shell in the project’s container', async () => {
    signIn();
    const sockets = installFakeWebSocket();
    renderNotebook(
      on('GET', '/v1/notebook/detail/n1', { body: notebookDetail(NB, JUPYTER_RUNNING) }),
      on('POST', '/v1/notebook/n1/open', opened(JUPYTER_RUNNING, LAB)),
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Terminal' })).not.toHaveAttribute('aria-disabled'));
    await user().click(screen.getByRole('button', { name: 'Terminal' }));
    expect(await screen.findByRole('dialog', { name: 'Terminal: Sales' })).toBeInTheDocument();
    await waitFor(() => expect(sockets.all).toHaveLength(1), { timeout: 15_000 });
    expect(sockets.latest().url).toMatch(/\/terminalConnection\?id=p1&uid=u-1$/);
  });
});

describe('the commit modal', () => {
  function commitHandlers(reply: Parameters<typeof on>[2]) {
    return [
      on('GET', '/v1/notebook/detail/n1', { body: notebookDetail(NB, JUPYTER_RUNNING) }),
      on('POST', '/v1/notebook/n1/open', opened(JUPYTER_RUNNING, LAB)),
      on('POST', '/v1/notebook/n1/commit', reply),
    ];
  }

  async function commit(message?: string) {
    await user().click(await screen.findByRole('button', { name: 'Commit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Commit notebook' });
    const box = within(dialog).getByRole('textbox', { name: 'Commit message' });
    expect(box).toHaveValue('Update Explore');
    if (message) {
      await user().clear(box);
      await user().type(box, message);
    }
    await user().click(within(dialog).getByRole('button', { name: 'Commit' }));
    return dialog;
  }

  it("commits with the message: 'Commit successful'", async () => {
    signIn();
    const { calls } = renderNotebook(...commitHandlers({ body: { success: true, message: 'Commit successful', commit: { sha: 'abc' } } }));
    await commit('First analysis');
    expect(await screen.findByText('Commit successful')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Commit notebook' })).not.toBeInTheDocument());
    expect(calls.find((c) => c.url === '/v1/notebook/n1/commit')!.body).toEqual({ message: 'First analysis' });
  });

  it("an unchanged notebook: 'Nothing to commit', not an error", async () => {
    signIn();
    renderNotebook(...commitHandlers({ body: { success: true, message: 'Nothing to commit', commit: null } }));
    const dialog = await commit();
    expect(await within(dialog).findByRole('status')).toHaveTextContent('Nothing to commit');
    expect(within(dialog).queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText('Error')).not.toBeInTheDocument();
  });

  it("JupyterLab not running (409): 'Open the notebook first'", async () => {
    signIn();
    renderNotebook(
      ...commitHandlers({
        status: 409,
        body: { success: false, code: 'notebook_not_open', message: 'Open the notebook first: its changes are in the running JupyterLab' },
      }),
    );
    const dialog = await commit();
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('Open the notebook first');
    expect(alert).toHaveTextContent('its changes are in the running JupyterLab');
    expect(alert).toHaveTextContent('Open the notebook, save it, then commit.');
  });

  it('a file changed in git since it was opened (409 stale_file) is said so', async () => {
    signIn();
    renderNotebook(...commitHandlers({ status: 409, body: { success: false, code: 'stale_file', message: 'The file changed on the branch' } }));
    const dialog = await commit();
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The notebook changed in git since it was opened');
    expect(alert).toHaveTextContent('The file changed on the branch');
  });
});

describe('notebook preview (/notebooks/{id}/preview)', () => {
  it('renders the API’s html in a sandboxed frame (no scripts, no same origin) 5 s after the call succeeded, a loader meanwhile', async () => {
    signIn();
    installManualClock();
    const html = '<html><body><h1>Explore</h1><script>alert(1)</script></body></html>';
    const calls = mockFetch(
      on('GET', '/v1/notebook/detail/n1', { body: notebookDetail(NB) }),
      on('POST', '/v1/notebook/n1/preview', { body: { success: true, html } }),
    );
    renderWithProviders(<NotebookPreview id="n1" />);
    await settle(() => expect(calls.some((c) => c.url === '/v1/notebook/n1/preview')).toBe(true));
    await settle(() => expect(screen.getByRole('link', { name: 'Sales' })).toBeInTheDocument());
    expect(screen.getByRole('status', { name: 'Rendering the notebook' })).toBeInTheDocument();
    await advance(NOTEBOOK_FRAME_DELAY_MS - 1);
    expect(screen.queryByTitle('Preview of Explore')).not.toBeInTheDocument();
    await advance(1);
    const preview = screen.getByTitle('Preview of Explore');
    expect(preview).toHaveAttribute('sandbox', '');
    expect(preview).toHaveAttribute('srcdoc', html);
    expect(screen.getByRole('link', { name: 'Open in JupyterLab' })).toHaveAttribute('href', '/notebooks/n1');
  });

  it('a failed rendering says why', async () => {
    signIn();
    mockFetch(
      on('GET', '/v1/notebook/detail/n1', { body: notebookDetail(NB) }),
      on('POST', '/v1/notebook/n1/preview', { status: 500, body: { success: false, code: 'render_failed', message: 'The notebook is not valid JSON' } }),
    );
    renderWithProviders(<NotebookPreview id="n1" />);
    fireEvent.focus(document.body);
    expect(await screen.findByRole('alert')).toHaveTextContent('The notebook is not valid JSON');
  });
});
