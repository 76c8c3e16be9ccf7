import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { APP_FRAME_DELAY_MS, INSIGHT_CHECK_MS } from '@/config/constants';
import { STARTING } from '@/features/insights/components/app-state-panel';
import { AppViewer, frameUrl, NOT_RUNNING } from '@/features/insights/components/app-viewer';
import { advance, installManualClock, settle } from '@/testing/clock';
import { makeInsight, sharedInsight } from '@/testing/insights';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { installFakeWebSocket } from '@/testing/fake-websocket';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

describe('app viewer', () => {
  it('points the frame at open_url, a report at report_url', () => {
    const app = makeInsight({ app_url: 'https://ext.io' });
    expect(frameUrl({ success: true, application: app, open_url: '/apps/a/?ticket=t', failure_log: null })).toBe('/apps/a/?ticket=t');
    expect(frameUrl({ success: true, application: app, open_url: null, failure_log: null })).toBe('https://ext.io');
    expect(frameUrl({ success: true, application: makeInsight({ app_type: 'user_report' }), report_url: 'https://s3/r.pdf', failure_log: null })).toBe('https://s3/r.pdf');
  });

  it('frames only an http(s) address or a path of ours, never a script or another scheme', () => {
    const app = makeInsight({ app_url: 'javascript:alert(1)' });
    const frame = (open_url: string | null) => frameUrl({ success: true, application: app, open_url, failure_log: null });
    expect(frame('http://a1.apps.localhost:8080/apps/a1/?ticket=t')).toBe('http://a1.apps.localhost:8080/apps/a1/?ticket=t');
    expect(frame('https://dashboards.example.com/sales')).toBe('https://dashboards.example.com/sales');
    expect(frame('/apps/a1/?ticket=t')).toBe('/apps/a1/?ticket=t');
    for (const bad of ['javascript:alert(document.domain)', ' JavaScript:alert(1)', 'data:text/html,<script>1</script>', '//evil.example/x', 'vbscript:x', null]) {
      expect(frame(bad), String(bad)).toBeNull();
    }
  });

  it('says why a cluster app cannot be opened when the platform serves no apps', async () => {
    signIn();
    const app = makeInsight({ id: 'a4', name: 'Blocked', status: 'running' });
    const why = 'Published apps cannot be opened: this platform has no origin for them (LUDIS_APPS_ORIGIN). Ask your administrator.';
    mockFetch(on('GET', '/v1/applications/a4', { body: { success: true, application: app, open_url: null, open_error: why } }));
    renderWithProviders(<AppViewer id="a4" />);
    expect(await screen.findByText(why)).toBeInTheDocument();
    expect(screen.queryByText(NOT_RUNNING)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start' })).not.toBeInTheDocument();
    expect(screen.queryByTitle('Blocked')).not.toBeInTheDocument();
  });

  it('sets the frame 1 s after the app loaded; breadcrumb back to Insights; fullscreen toggle', async () => {
    signIn();
    const app = makeInsight({ id: 'a1', name: 'Sales app' });
    mockFetch(on('GET', '/v1/applications/a1', { body: { success: true, application: app, open_url: '/apps/a1/?ticket=t1', report_url: null } }));
    renderWithProviders(<AppViewer id="a1" aside={<p>comments here</p>} />);
    expect(await screen.findByRole('heading', { name: 'Sales app' })).toBeInTheDocument();
    const loadedAt = Date.now();
    expect(screen.queryByTitle('Sales app')).not.toBeInTheDocument();
    const frame = await screen.findByTitle('Sales app');
    expect(Date.now() - loadedAt).toBeGreaterThanOrEqual(900);
    expect(frame).toHaveAttribute('src', '/apps/a1/?ticket=t1');
    expect(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'Insights' })).toHaveAttribute('href', '/insights');
    expect(screen.getByText('comments here')).toBeInTheDocument();

    const container = screen.getByTestId('app-frame-container');
    expect(container).not.toHaveAttribute('data-fullscreen');
    await user().click(screen.getByRole('button', { name: 'Fullscreen' }));
    expect(container).toHaveAttribute('data-fullscreen', 'true');
    await user().click(screen.getAllByRole('button', { name: 'Exit fullscreen' })[0]);
    expect(container).not.toHaveAttribute('data-fullscreen');
  });

  it('offers Start to an executor when the app is not running', async () => {
    signIn();
    const app = sharedInsight('execute', { id: 'a2', name: 'Idle', status: 'stopped' });
    const calls = mockFetch(
      on('GET', '/v1/applications/a2', { body: { success: true, application: app, open_url: null } }),
      on('POST', '/v1/applications/restart', { body: { success: true, message: 'Application restarted', application: { ...app, status: 'starting' } } }),
    );
    renderWithProviders(<AppViewer id="a2" />);
    expect(await screen.findByText(NOT_RUNNING)).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Start' }));
    expect(await screen.findByText('Application restarted')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ application_id: 'a2', publish_filenames: [] });
  });

  it('says what a starting app waits for, and opens it by itself once it runs', async () => {
    signIn();
    installManualClock();
    const starting = makeInsight({ id: 'a8', name: 'Soon', status: 'starting', status_message: 'waiting for a node: 0/2 nodes are available: 1 Insufficient cpu.' });
    let answers = 0;
    mockFetch(
      on('GET', '/v1/applications/a8', () => {
        answers += 1;
        return answers < 3
          ? { body: { success: true, application: starting, open_url: null, failure_log: null } }
          : { body: { success: true, application: { ...starting, status: 'running', status_message: null }, open_url: '/apps/a8/?ticket=t', failure_log: null, report_url: null, open_error: null } };
      }),
    );
    renderWithProviders(<AppViewer id="a8" />);
    await settle(() => expect(screen.getByRole('status', { name: STARTING })).toHaveTextContent('1 Insufficient cpu'));
    // Looked at again every INSIGHT_CHECK_MS while it starts, until it runs.
    for (const seen of [2, 3]) {
      await advance(INSIGHT_CHECK_MS);
      await settle(() => expect(answers).toBe(seen));
    }
    // TanStack Query tells the page on a 0 ms timer (1 ms on this clock).
    await advance(1);
    await settle(() => expect(screen.getByRole('status', { name: 'Opening the app' })).toBeInTheDocument());
    expect(screen.queryByRole('status', { name: STARTING })).not.toBeInTheDocument();
    await advance(APP_FRAME_DELAY_MS);
    await settle(() => expect(screen.getByTitle('Soon')).toHaveAttribute('src', '/apps/a8/?ticket=t'));
    expect(answers).toBe(3);
  });

  it('shows a failed app as failed, with why, its last log lines and its logs', async () => {
    signIn();
    installFakeWebSocket();
    const app = sharedInsight('execute', { id: 'a9', name: 'Broken', status: 'failed', status_message: 'the program ended with an error (exit code 1, restarted 3 times)' });
    mockFetch(
      on('GET', '/v1/applications/a9', {
        body: { success: true, application: app, open_url: null, failure_log: ['Traceback (most recent call last):', "ModuleNotFoundError: No module named 'missing'"] },
      }),
    );
    renderWithProviders(<AppViewer id="a9" />);
    const alert = await screen.findByRole('alert', { name: 'The app failed' });
    expect(alert).toHaveTextContent('exit code 1, restarted 3 times');
    expect(within(alert).getByLabelText('Last log lines')).toHaveTextContent("ModuleNotFoundError: No module named 'missing'");
    expect(within(alert).getByRole('button', { name: 'Start again' })).toBeInTheDocument();
    await user().click(within(alert).getByRole('button', { name: 'Open the logs' }));
    expect(await screen.findByRole('dialog', { name: 'Console · Broken' })).toBeInTheDocument();
  });

  it("opens an executor's side console on the app's container: its log (archived once it stopped), then a terminal", async () => {
    signIn();
    const sockets = installFakeWebSocket();
    const app = sharedInsight('execute', { id: 'a5', name: 'Dash', status: 'stopped' });
    mockFetch(on('GET', '/v1/applications/a5', { body: { success: true, application: app, open_url: null } }));
    renderWithProviders(<AppViewer id="a5" />);
    await user().click(await screen.findByRole('button', { name: 'Logs' }));
    const drawer = await screen.findByRole('dialog', { name: 'Console · Dash' });
    expect(within(drawer).getByRole('tab', { name: 'Logs', selected: true })).toBeInTheDocument();
    const logs = sockets.latest();
    expect(logs.url).toMatch(/\/containerLogs\?id=a5&uid=/);
    logs.accept();
    logs.receive('{"type":"status","status":"ended"}');
    logs.receive('archived line');
    expect(await within(drawer).findByText('archived line')).toBeInTheDocument();
    expect(within(drawer).getByRole('status', { name: 'Log status' })).toHaveTextContent('The container has ended; showing its archived log.');

    await user().click(within(drawer).getByRole('tab', { name: 'Terminal' }));
    await vi.waitFor(() => expect(sockets.latest().url).toMatch(/\/terminalConnection\?id=a5&uid=/));
  });

  it('has no console for a viewer, nor for an external app', async () => {
    signIn();
    const viewed = sharedInsight('view', { id: 'a6', name: 'Seen', status: 'running' });
    const external = sharedInsight('edit', { id: 'a7', name: 'Ext', status: 'external' });
    mockFetch(
      on('GET', '/v1/applications/a6', { body: { success: true, application: viewed, open_url: null } }),
      on('GET', '/v1/applications/a7', { body: { success: true, application: external, open_url: null } }),
    );
    const first = renderWithProviders(<AppViewer id="a6" />);
    expect(await screen.findByRole('heading', { name: 'Seen' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logs' })).not.toBeInTheDocument();
    first.unmount();
    renderWithProviders(<AppViewer id="a7" />);
    expect(await screen.findByRole('heading', { name: 'Ext' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Logs' })).not.toBeInTheDocument();
  });

  it('has no Start for a viewer', async () => {
    signIn();
    const app = sharedInsight('view', { id: 'a3', name: 'Idle', status: 'stopped' });
    mockFetch(on('GET', '/v1/applications/a3', { body: { success: true, application: app, open_url: null } }));
    renderWithProviders(<AppViewer id="a3" />);
    expect(await screen.findByText(NOT_RUNNING)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Start' })).not.toBeInTheDocument();
  });

  it('says so in place when the app is not found', async () => {
    signIn();
    mockFetch(on('GET', '/v1/applications/zz', { status: 404, body: { success: false, code: 'application_not_found', message: 'Application not found' } }));
    renderWithProviders(<AppViewer id="zz" />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Not found');
    expect(alert).toHaveTextContent('Application not found');
    // Trying again cannot find it: no retry, a way back instead.
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(within(alert).getByRole('link', { name: 'Back to Insights' })).toHaveAttribute('href', '/insights');
  });

  it('offers Try again for a failure that is not a 404', async () => {
    signIn();
    mockFetch(on('GET', '/v1/applications/zz', { status: 400, body: { success: false, message: 'Invalid id' } }));
    renderWithProviders(<AppViewer id="zz" />);
    expect(await screen.findByRole('button', { name: 'Try again' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Back to Insights' })).not.toBeInTheDocument();
  });
});
