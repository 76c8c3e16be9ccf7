import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

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
    // The sign-in page's card and logo, not a dialog over it.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const card = screen.getByTestId('auth-card');
    expect(within(card).getByRole('img', { name: 'Ludis' })).toHaveAttribute('src', '/favicon.svg');
    expect(within(card).getByRole('heading', { name: 'Verify your sign-in' })).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Verify' })).toBeInTheDocument();
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

  it("marks the fields the server refused: the empty ones ('Email and password are required'), the password when wrong", async () => {
    let answer = { status: 400, body: { success: false, code: 'credentials_required', message: 'Email and password are required' } };
    mockFetch(on('POST', '/v1/auth/login', () => answer));
    renderApp('/login');
    await user().type(await screen.findByLabelText(/Email/), 'x@y.z');
    await user().click(screen.getByRole('button', { name: 'Sign In' }));
    await vi.waitFor(() => expect(screen.getByLabelText(/Password/)).toHaveAccessibleDescription('Email and password are required'));
    expect(screen.getByLabelText(/Email/)).not.toHaveAccessibleDescription('Email and password are required');

    answer = { status: 401, body: { success: false, code: 'invalid_credentials', message: 'Invalid email or password' } };
    await user().type(screen.getByLabelText(/Password/), 'nope');
    await user().click(screen.getByRole('button', { name: 'Sign In' }));
    await vi.waitFor(() => expect(screen.getByLabelText(/Password/)).toHaveAccessibleDescription('Invalid email or password'));
  });

  it('clears the error toasts of failed attempts when the sign-in succeeds', async () => {
    let fail = true;
    mockFetch(
      on('POST', '/v1/auth/login', () =>
        fail
          ? { status: 401, body: { success: false, code: 'invalid_credentials', message: 'Invalid email or password' } }
          : { body: { success: true, message: 'ok', token: 't1', refresh_token: 'r1', user: makeUser(), verified_2fa: true, requires_2fa_enrollment: false } },
      ),
      on('GET', '/v1/flighting', { body: { success: true, flightings: [] } }),
      on('GET', '/v1/config', { body: { success: true } }),
      on('GET', '/v1/applications/pin/list', { body: { success: true, applications: [] } }),
    );
    renderApp('/login');
    await user().type(await screen.findByLabelText(/Email/), 'ada@example.com');
    await user().type(screen.getByLabelText(/Password/), 'wrong');
    await user().click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Invalid email or password', { selector: '.mantine-Notification-description' })).toBeInTheDocument();
    fail = false;
    await user().click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Signed in successfully!')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByText('Invalid email or password', { selector: '.mantine-Notification-description' })).not.toBeInTheDocument());
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
