import { render, screen, within } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { AppProvider } from '@/app/provider';
import { createTestRouter } from '@/app/router';
import { type Handler, mockFetch, on } from '@/testing/fetch-mock';
import { makeLoginSeries, makeOverview, orgSeries } from '@/testing/metrics';
import { makeOrganization, makeUser, signIn } from '@/testing/session';
import { user } from '@/testing/user';

const all = ['developer', 'management', 'administrator', 'superadmin'];

function api(...first: Handler[]) {
  return mockFetch(
    ...first,
    on('GET', '/v1/flighting', { body: { flightings: [{ key: 'insights', name: 'Insights', active: true, user_roles: all }] } }),
    on('GET', '/v1/config', { body: { success: true, config: { supportEmail: 'help@ludis.test', documentationUrl: 'https://docs', roles: all } } }),
    on('GET', '/v1/organizations/7', { body: { success: true, organization: makeOrganization() } }),
    on('GET', '/v1/organizations/activeUserCounts', { body: { success: true, counts: [{ id: '7', name: 'Acme', max_seats: 5, active_users: 3 }] } }),
    on('GET', '/v1/metrics', {
      body: makeOverview({ logins: 12, failedLogins: 1, activeUsers: 2, totalUsers: 3, organizations: 1, activities: 9, byEntity: [{ entity: 'projects', count: 4 }] }),
    }),
    on('GET', '/v1/metrics/numLogins', { body: makeLoginSeries([{ date: '2026-11-01', logins: 2, series: '7' }], [orgSeries('7', 'Acme', 2)]) }),
    on('GET', '/readyz', { body: { ready: true, checks: { database: 'ok' } } }),
    on('GET', '/v1/users', { body: { users: [], total: 0 } }),
    on('GET', '/v1/organizations/7/mailrecipients', { body: { success: true, addresses: [] } }),
  );
}

function renderAt(url: string) {
  const router = createTestRouter(url);
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

describe('admin portal', () => {
  it('is for administrators: a developer is sent home', async () => {
    signIn({ role: 'developer' }, true);
    api();
    const router = renderAt('/admin-portal');
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it.each(['/admin-portal', '/organizations/7/users', '/organizations/7', '/organizations/7/users/new', '/flight-settings', '/organizations/new'])(
    'sends a developer home from %s before any admin-only request',
    async (url) => {
      signIn({ role: 'developer' }, true);
      const calls = api();
      const router = renderAt(url);
      expect(await screen.findByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
      expect(router.state.location.pathname).toBe('/');
      const adminOnly = calls.map((c) => c.url).filter((u) => /^\/v1\/(metrics|organizations|users)/.test(u));
      expect(adminOnly).toEqual([]);
    },
  );

  it('keeps /organizations/new for superadmins: an administrator is sent home', async () => {
    signIn({ role: 'administrator' }, true);
    api();
    const router = renderAt('/organizations/new');
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
  });

  it('an administrator sees the five tabs, their organization card, totals and the actions for their role', async () => {
    signIn({ role: 'administrator' }, true);
    api();
    renderAt('/admin-portal');
    expect(await screen.findByRole('heading', { name: 'Admin portal' })).toBeInTheDocument();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Overview',
      'Users',
      'User activities',
      'Entity Usage',
      'Security',
    ]);
    expect(await screen.findByText('Active users: 3 / 5')).toBeInTheDocument();
    const totals = await screen.findByRole('list', { name: 'Totals' });
    expect(totals).toHaveTextContent('Logins12');
    expect(totals).toHaveTextContent('Failed logins1');
    expect(totals).not.toHaveTextContent('Organizations');
    expect(screen.getByRole('link', { name: 'Change Flighting' })).toHaveAttribute('href', '/flight-settings');
    expect(screen.getByRole('link', { name: 'Add users' })).toHaveAttribute('href', '/organizations/7/users/new?from=admin-portal');
    expect(screen.queryByRole('link', { name: 'Add organization' })).not.toBeInTheDocument();

    await user().click(screen.getByRole('tab', { name: 'Security' }));
    expect(await screen.findByRole('switch', { name: 'Require two-factor authentication' })).not.toBeChecked();
  });

  it("lists the addresses outside the organization its workflows may notify, and saves them", async () => {
    signIn({ role: 'administrator' }, true);
    const calls = api(
      on('PUT', '/v1/organizations/7/mailrecipients', (c) => ({
        body: { success: true, addresses: [...new Set((c.body as { addresses: string[] }).addresses.map((a) => a.toLowerCase()))].sort() },
      })),
    );
    renderAt('/admin-portal');
    await user().click(await screen.findByRole('tab', { name: 'Security' }));
    const field = await screen.findByRole('textbox', { name: 'Other addresses workflows may notify' });
    expect(screen.getByRole('button', { name: 'Save addresses' })).toBeDisabled();
    await user().type(field, 'Ops@Partner.example{Enter}audit@firm.example, ops@partner.example');
    await user().click(screen.getByRole('button', { name: 'Save addresses' }));
    expect(await screen.findByText('Notification addresses saved')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ addresses: ['Ops@Partner.example', 'audit@firm.example', 'ops@partner.example'] });
    // What the API kept is shown.
    expect(field).toHaveValue('audit@firm.example\nops@partner.example');
  });

  it("a superadmin's Users tab says each user's organization; one way to add a user on the screen", async () => {
    signIn({ role: 'superadmin' }, true);
    api(
      on('GET', '/v1/organizations/list', {
        body: { success: true, organizations: [makeOrganization({ id: '7', name: 'Acme' }), makeOrganization({ id: '8', name: 'Globex' })], total: 2 },
      }),
      on('GET', '/v1/users', {
        body: {
          success: true,
          total: 2,
          users: [
            { ...makeUser({ uid: 'u7', id: '17', email: 'ann@acme.io' }), organization: '7' },
            { ...makeUser({ uid: 'u8', id: '18', email: 'bob@globex.io' }), organization: '8' },
          ],
        },
      }),
    );
    renderAt('/admin-portal');
    await user().click(await screen.findByRole('tab', { name: 'Users' }));
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getByRole('columnheader', { name: 'Organization' })).toBeInTheDocument();
    await vi.waitFor(() => expect(within(table).getByRole('row', { name: /ann@acme\.io/ })).toHaveTextContent('Acme'));
    expect(within(table).getByRole('row', { name: /bob@globex\.io/ })).toHaveTextContent('Globex');
    expect(screen.getAllByRole('link', { name: 'Add users' })).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Add User' })).not.toBeInTheDocument();
  });
});
