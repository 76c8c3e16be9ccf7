import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { createTestRouter, routes } from '@/app/router';
import { AppProvider } from '@/app/provider';
import { getSession } from '@/lib/auth';
import { STORAGE_KEYS } from '@/lib/storage';
import { mockFetch, on } from '@/testing/fetch-mock';
import { makeUser } from '@/testing/session';
import { render } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { user } from '@/testing/user';

function renderApp(url: string) {
  const router = createTestRouter(url);
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

async function signInWith(account = makeUser()) {
  const calls = mockFetch(
    on('POST', '/v1/auth/login', {
      body: {
        success: true,
        message: 'ok',
        token: 't1',
        refresh_token: account.enabled_2fa || account.is_2fa_required ? null : 'r1',
        user: account,
        verified_2fa: !(account.enabled_2fa || account.is_2fa_required),
        requires_2fa_enrollment: !!account.is_2fa_required && !account.enabled_2fa,
      },
    }),
    on('GET', '/v1/flighting', { body: { success: true, flightings: [] } }),
    on('GET', '/v1/config', { body: { success: true } }),
    on('GET', '/v1/applications/pin/list', { body: { success: true, applications: [] } }),
  );
  const router = renderApp('/home');
  const email = await screen.findByLabelText(/Email/);
  await user().type(email, account.email);
  await user().type(screen.getByLabelText(/Password/), 'secret1');
  await user().click(screen.getByRole('button', { name: 'Sign In' }));
  return { calls, router };
}

describe('sign in', () => {
  it('the guard sends a signed-out visitor to /login', async () => {
    mockFetch();
    const router = renderApp('/admin-portal');
    expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('stores token, refresh token and user, toasts and goes home', async () => {
    const { calls, router } = await signInWith();
    expect(await screen.findByText('Signed in successfully!')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(calls[0].body).toEqual({ user: { email: 'ada@example.com', password: 'secret1' } });
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe('t1');
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('r1');
    expect(JSON.parse(window.localStorage.getItem(STORAGE_KEYS.user) ?? '{}').email).toBe('ada@example.com');
  });

  it('a user with 2FA enabled goes to the verify page', async () => {
    const { router } = await signInWith(makeUser({ enabled_2fa: true, confirmed_2fa: true }));
    expect(await screen.findByRole('button', { name: 'Verify' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/two-factor-auth-verify');
    expect(screen.queryByText('Signed in successfully!')).not.toBeInTheDocument();
  });

  it('a user whose organization requires 2FA goes to the enable page', async () => {
    const { router } = await signInWith(makeUser({ is_2fa_required: true }));
    await screen.findByText('Verification instructions');
    expect(router.state.location.pathname).toBe('/two-factor-auth-enable');
  });

  it('shows the server message when sign-in fails', async () => {
    mockFetch(on('POST', '/v1/auth/login', { status: 401, body: { success: false, message: 'Invalid email or password', code: 'invalid_credentials' } }));
    renderApp('/login');
    await user().type(await screen.findByLabelText(/Email/), 'x@y.z');
    await user().type(screen.getByLabelText(/Password/), 'nope');
    await user().click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('ErrorInvalid email or password');
    expect(getSession().token).toBeNull();
  });

  it("links 'Forgot password?' to the public page that says who resets passwords", async () => {
    mockFetch();
    const router = renderApp('/login');
    await user().click(await screen.findByRole('link', { name: 'Forgot password?' }));
    expect(await screen.findByRole('heading', { name: 'Need an account or a new password?' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/forgot_password');
  });

  it('unknown paths redirect home', async () => {
    mockFetch(
      on('GET', '/v1/flighting', { body: { flightings: [] } }),
      on('GET', '/v1/applications/pin/list', { body: { applications: [] } }),
    );
    window.localStorage.setItem(STORAGE_KEYS.token, 't');
    window.localStorage.setItem(STORAGE_KEYS.user, JSON.stringify(makeUser()));
    const { reloadSession } = await import('@/lib/auth');
    reloadSession();
    const router = renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Welcome, Ada!' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/');
    expect(routes.length).toBe(1);
  });
});
