import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { APP_DELETED, DELETE_CONFIRM, InsightCard, REMOVE_CONFIRM } from '@/features/insights/components/insight-card';
import { makeInsight, sharedInsight } from '@/testing/insights';
import { mockFetch, on } from '@/testing/fetch-mock';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

function card(name: string) {
  return screen.getByRole('article', { name });
}

describe('insight card', () => {
  it('cuts the name to 22 and the description to 25 characters, ending with ...', () => {
    signIn();
    mockFetch();
    renderWithProviders(
      <>
        <InsightCard insight={makeInsight({ name: 'Quarterly revenue by region', description: 'Sales of every store in the last quarter' })} />
        <InsightCard insight={makeInsight({ name: 'Short name', description: 'Fits in twenty-five chars' })} />
      </>,
    );
    const long = card('Quarterly revenue by region');
    expect(within(long).getByTestId('insight-name')).toHaveTextContent(/^Quarterly revenue by r\.\.\.$/);
    expect(within(long).getByTestId('insight-description')).toHaveTextContent(/^Sales of every store in t\.\.\.$/);
    const short = card('Short name');
    expect(within(short).getByTestId('insight-name')).toHaveTextContent(/^Short name$/);
    expect(within(short).getByTestId('insight-description')).toHaveTextContent(/^Fits in twenty-five chars$/);
    expect(long).toHaveAttribute('data-testid', 'insight-card');
    expect(long).toHaveAttribute('data-name', 'Quarterly revenue by region');
  });

  it('keeps the cut name and description on one line; no description or image still reads as a card', () => {
    signIn();
    mockFetch();
    renderWithProviders(<InsightCard insight={makeInsight({ name: 'Plain', description: '', img_url: null, app_type: 'report' })} />);
    const plain = card('Plain');
    expect(within(plain).getByTestId('insight-name')).toHaveAttribute('data-truncate', 'end');
    expect(within(plain).getByTestId('insight-description')).toHaveTextContent(/^No description$/);
    expect(within(plain).getByTestId('insight-description')).toHaveAttribute('data-truncate', 'end');
    expect(within(plain).getByTestId('insight-placeholder')).toHaveTextContent('Report');
  });

  it("shows the view count in a tooltip: '1 View', else 'N Views'", async () => {
    signIn();
    mockFetch();
    renderWithProviders(
      <>
        <InsightCard insight={makeInsight({ name: 'One', userMetrics: 1 })} />
        <InsightCard insight={makeInsight({ name: 'Many', userMetrics: 12 })} />
        <InsightCard insight={makeInsight({ name: 'None', userMetrics: 0 })} />
      </>,
    );
    expect(within(card('None')).getByTestId('insight-views')).toHaveAccessibleName('0 Views');
    await user().hover(within(card('One')).getByTestId('insight-views'));
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent(/^1 View$/);
    await user().unhover(within(card('One')).getByTestId('insight-views'));
    await user().hover(within(card('Many')).getByTestId('insight-views'));
    await vi.waitFor(() =>
      expect(screen.getAllByRole('tooltip', { hidden: true }).map((t) => t.textContent)).toContain('12 Views'),
    );
    expect(within(card('Many')).getByTestId('insight-views')).toHaveAccessibleName('12 Views');
    expect(within(card('One')).getByTestId('insight-views')).toHaveAccessibleName('1 View');
  });

  it('shows Edit, Share and Delete only with edit access', async () => {
    signIn();
    mockFetch();
    const onShare = vi.fn();
    const editor = sharedInsight('edit', { name: 'Editable' });
    renderWithProviders(
      <>
        <InsightCard insight={editor} onShare={onShare} />
        <InsightCard insight={sharedInsight('execute', { name: 'Runnable' })} onShare={onShare} />
        <InsightCard insight={sharedInsight('view', { name: 'Viewable' })} onShare={onShare} />
      </>,
    );
    expect(within(card('Runnable')).queryByRole('button', { name: 'Actions for Runnable' })).not.toBeInTheDocument();
    expect(within(card('Viewable')).queryByRole('button', { name: 'Actions for Viewable' })).not.toBeInTheDocument();
    // Shared without edit: only a way to remove it from one's own list.
    expect(within(card('Viewable')).getByRole('button', { name: 'Remove Viewable from insights' })).toBeInTheDocument();

    await user().click(within(card('Editable')).getByRole('button', { name: 'Actions for Editable' }));
    const menu = await screen.findByRole('menu', { hidden: true });
    expect(within(menu).getAllByRole('menuitem', { hidden: true }).map((i) => i.textContent)).toEqual(['Edit', 'Share', 'Remove from insights']);
    await user().click(within(menu).getByRole('menuitem', { name: 'Share', hidden: true }));
    expect(onShare).toHaveBeenCalledWith(editor);
  });

  it('the owner gets Delete, which asks and calls DELETE /v1/applications/{id}', async () => {
    signIn();
    const calls = mockFetch(on('DELETE', '/v1/applications/app-x', { body: { success: true, message: 'App Deleted!' } }));
    renderWithProviders(<InsightCard insight={makeInsight({ id: 'app-x', name: 'Mine' })} />);
    await user().click(screen.getByRole('button', { name: 'Actions for Mine' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Delete', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(within(dialog).getByText(DELETE_CONFIRM)).toBeInTheDocument();
    expect(DELETE_CONFIRM).toBe('Are you sure you want to delete this item?');
    await user().click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(APP_DELETED)).toBeInTheDocument();
    expect(APP_DELETED).toBe('App Deleted!');
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['DELETE /v1/applications/app-x']);
  });

  it('a shared app is removed from the list with DELETE /v1/applications/share/{appId}', async () => {
    signIn();
    const calls = mockFetch(on('DELETE', '/v1/applications/share/app-s', { body: { success: true, message: 'Access removed' } }));
    renderWithProviders(<InsightCard insight={sharedInsight('view', { id: 'app-s', name: 'Theirs' })} />);
    await user().click(screen.getByRole('button', { name: 'Remove Theirs from insights' }));
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(within(dialog).getByText(REMOVE_CONFIRM)).toBeInTheDocument();
    expect(REMOVE_CONFIRM).toBe('Are you sure you want remove this from the insights page?');
    await user().click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('App Deleted!')).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual(['DELETE /v1/applications/share/app-s']);
  });

  it('shows the run switch and refresh only with execute or edit access, never for external apps', () => {
    signIn();
    mockFetch();
    renderWithProviders(
      <>
        <InsightCard insight={makeInsight({ name: 'Owned' })} />
        <InsightCard insight={sharedInsight('execute', { name: 'Exec' })} />
        <InsightCard insight={sharedInsight('view', { name: 'View' })} />
        <InsightCard insight={makeInsight({ name: 'External', status: 'external', app_url: 'https://x.io', container_name: null })} />
        <InsightCard insight={makeInsight({ name: 'Pdf', app_type: 'user_report', status: 'uploaded', container_name: null })} />
      </>,
    );
    expect(within(card('Owned')).getByRole('switch', { name: 'Run Owned' })).toBeChecked();
    expect(within(card('Owned')).getByRole('button', { name: 'Redeploy Owned' })).toBeInTheDocument();
    expect(within(card('Exec')).getByRole('switch', { name: 'Run Exec' })).toBeInTheDocument();
    for (const name of ['View', 'External', 'Pdf']) {
      expect(within(card(name)).queryByRole('switch')).not.toBeInTheDocument();
      expect(within(card(name)).queryByRole('button', { name: `Redeploy ${name}` })).not.toBeInTheDocument();
    }
  });

  it('the switch stops and restarts; refresh redeploys', async () => {
    signIn();
    const stopped = makeInsight({ id: 'a1', name: 'Runner', status: 'stopped' });
    const calls = mockFetch(
      on('POST', '/v1/applications/stop', { body: { success: true, message: 'Application stopped', application: stopped } }),
      on('POST', '/v1/applications/restart', { body: { success: true, message: 'Application restarted', application: { ...stopped, status: 'starting' } } }),
      on('POST', '/v2/applications/redeploy/a1', { body: { success: true, message: 'Application redeployed', application: stopped } }),
    );
    renderWithProviders(<InsightCard insight={makeInsight({ id: 'a1', name: 'Runner', status: 'running' })} />);
    await user().click(screen.getByRole('switch', { name: 'Run Runner' }));
    expect(await screen.findByText('Application stopped')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ method: 'POST', url: '/v1/applications/stop', body: { application_id: 'a1', publish_filenames: [] } });
    await user().click(screen.getByRole('button', { name: 'Redeploy Runner' }));
    expect(await screen.findByText('Application redeployed')).toBeInTheDocument();
    expect(calls.at(-1)).toMatchObject({ method: 'POST', url: '/v2/applications/redeploy/a1' });
  });

  it('restarts a stopped app', async () => {
    signIn();
    const app = makeInsight({ id: 'a2', name: 'Sleeper', status: 'stopped' });
    const calls = mockFetch(
      on('POST', '/v1/applications/restart', { body: { success: true, message: 'Application restarted', application: { ...app, status: 'starting' } } }),
    );
    renderWithProviders(<InsightCard insight={app} />);
    const toggle = screen.getByRole('switch', { name: 'Run Sleeper' });
    expect(toggle).not.toBeChecked();
    await user().click(toggle);
    expect(await screen.findByText('Application restarted')).toBeInTheDocument();
    expect(calls[0]).toMatchObject({ url: '/v1/applications/restart', body: { application_id: 'a2', publish_filenames: [] } });
  });

  it('pins at once and flips back when the server refuses', async () => {
    signIn({ uid: 'me' });
    let fail = false;
    const calls = mockFetch(
      on('POST', '/v1/applications/pin', (c) =>
        fail
          ? { status: 500, body: { success: false, message: 'Pin failed' } }
          : { body: { success: true, applicationPinInfo: { ...(c.body as { app_pin: object }).app_pin, user_id: 'me' } } },
      ),
      on('GET', '/v1/applications/pin/list', { body: { success: true, applications: [] } }),
    );
    renderWithProviders(<InsightCard insight={makeInsight({ id: 'p1', name: 'Pinme', pinned: false })} />);
    await user().click(screen.getByRole('button', { name: 'Pin Pinme' }));
    expect(screen.getByRole('button', { name: 'Unpin Pinme' })).toHaveAttribute('aria-pressed', 'true');
    expect(calls[0].body).toEqual({ app_pin: { app_id: 'p1', user_id: 'me', pinned: true } });

    fail = true;
    await user().click(screen.getByRole('button', { name: 'Unpin Pinme' }));
    expect(await screen.findByText('Pin failed')).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Unpin Pinme' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('links an app to /app/{id} and previews a user report in a modal', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/applications/r1', {
        body: { success: true, application: makeInsight({ id: 'r1' }), report_url: 'https://s3.test/r1.pdf?sig=1', open_url: null },
      }),
    );
    const { router } = renderWithProviders(
      <>
        <InsightCard insight={makeInsight({ id: 'a9', name: 'Dash' })} />
        <InsightCard insight={makeInsight({ id: 'r1', name: 'Pdf report', app_type: 'user_report', status: 'uploaded', container_name: null })} />
      </>,
      { routes: [landing('/app/:id')] },
    );
    expect(within(card('Dash')).getByRole('link', { name: 'Open Dash' })).toHaveAttribute('href', '/app/a9');
    expect(within(card('Pdf report')).queryByRole('link')).not.toBeInTheDocument();
    await user().click(within(card('Pdf report')).getByRole('button', { name: 'Open Pdf report' }));
    const frame = await screen.findByTitle('Preview of Pdf report');
    expect(frame).toHaveAttribute('src', 'https://s3.test/r1.pdf?sig=1');
    expect(calls.map((c) => c.url)).toEqual(['/v1/applications/r1']);
    expect(router.state.location.pathname).toBe('/');
  });

  it('opens from anywhere on the card (the title included), but not from its controls or its dialogs', async () => {
    signIn();
    mockFetch(on('POST', '/v1/applications/pin', { body: { success: true, applicationPinInfo: { pinned: true } } }));
    const { router } = renderWithProviders(<InsightCard insight={makeInsight({ id: 'a9', name: 'Dash' })} />, { routes: [landing('/app/:id')] });
    // The pin toggle and the menu keep their own clicks.
    await user().click(within(card('Dash')).getByRole('button', { name: 'Pin Dash' }));
    await user().click(within(card('Dash')).getByRole('button', { name: 'Actions for Dash' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Edit', hidden: true }));
    const dialog = await screen.findByRole('dialog');
    await user().click(within(dialog).getAllByRole('textbox')[0]);
    expect(router.state.location.pathname).toBe('/');
    await user().keyboard('{Escape}');
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await user().click(within(card('Dash')).getByTestId('insight-name'));
    expect(router.state.location.pathname).toBe('/app/a9');
  });

  it('previews a user report from a click on its title', async () => {
    signIn();
    mockFetch(on('GET', '/v1/applications/r1', { body: { success: true, application: makeInsight({ id: 'r1' }), report_url: 'https://s3.test/r1.pdf?sig=1', open_url: null } }));
    renderWithProviders(<InsightCard insight={makeInsight({ id: 'r1', name: 'Pdf report', app_type: 'user_report', status: 'uploaded', container_name: null })} />);
    await user().click(within(card('Pdf report')).getByTestId('insight-description'));
    expect(await screen.findByTitle('Preview of Pdf report')).toHaveAttribute('src', 'https://s3.test/r1.pdf?sig=1');
  });
});
