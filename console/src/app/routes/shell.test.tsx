import { render, screen } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { AppProvider } from '@/app/provider';
import { createTestRouter } from '@/app/router';
import { getSession } from '@/lib/auth';
import { STORAGE_KEYS } from '@/lib/storage';
import { mockFetch, on } from '@/testing/fetch-mock';
import { makeOrganization, signIn } from '@/testing/session';
import { user } from '@/testing/user';

const all = ['developer', 'management', 'administrator'];
const flag = (key: string) => ({ key, name: key[0].toUpperCase() + key.slice(1), active: true, user_roles: all });

function api() {
  return mockFetch(
    on('GET', '/v1/flighting', {
      body: { success: true, message: '', organization: '7', flightings: ['insights', 'projects'].map(flag), editable_roles: ['developer', 'management'] },
    }),
    on('GET', '/v1/config', { body: { success: true, config: { supportEmail: 'help@ludis.test', documentationUrl: 'https://docs.test', roles: [...all, 'superadmin'] } } }),
    on('GET', '/v1/applications/pin/list', { body: { success: true, applications: [] } }),
    on('POST', '/v1/auth/logout', { body: { success: true, message: 'ok' } }),
    on('GET', /^\/v1\/organizations\/\d+$/, (c) => ({ body: { success: true, organization: makeOrganization({ id: c.url.split('/').pop(), name: `Org ${c.url.split('/').pop()}` }) } })),
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

describe('the signed-in shell', () => {
  it('shows the server support e-mail and documentation link', async () => {
    signIn({}, true);
    api();
    renderAt('/home');
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    await screen.findByRole('link', { name: 'Documentation', hidden: true });
    expect(nav.querySelector('a[href="https://docs.test"]')).not.toBeNull();
    await user().click(screen.getAllByRole('button', { name: 'Support' })[0]);
    expect(await screen.findByText(/For support, please email:/)).toHaveTextContent('For support, please email: help@ludis.test');
  });

  it('Logout revokes, clears token, refresh token, user and stored state, and returns to sign-in', async () => {
    signIn({}, true);
    const calls = api();
    const router = renderAt('/home');
    await screen.findByRole('heading', { name: 'Welcome, Ada!' });
    await user().click(screen.getAllByRole('button', { name: 'Logout' })[0]);
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(calls.find((c) => c.url === '/v1/auth/logout')?.body).toEqual({ refresh_token: 'refresh-1' });
    expect(getSession()).toMatchObject({ token: null, refreshToken: null, user: null });
    for (const key of Object.values(STORAGE_KEYS)) expect(window.localStorage.getItem(key)).toBeNull();
  });

  it.each([
    ['superadmin', '/organizations/9/flight-settings', '/organizations/9/users'],
    ['administrator', '/flight-settings', '/manage-organizations'],
  ] as const)("flight settings for a %s at %s: 'Admin Page' goes to %s", async (role, url, back) => {
    signIn({ role }, true);
    const calls = api();
    renderAt(url);
    expect(await screen.findByRole('link', { name: 'Admin Page' })).toHaveAttribute('href', back);
    await screen.findByRole('checkbox', { name: 'Insights' });
    const org = role === 'superadmin' ? '9' : '7';
    // The page names the organization it configures.
    expect(await screen.findByRole('heading', { name: `Flighting configuration: Org ${org}` })).toBeInTheDocument();
    expect(calls.some((c) => c.url === `/v1/flighting?organization=${org}`)).toBe(true);
  });
});
