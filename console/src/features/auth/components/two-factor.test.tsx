import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { TwoFactorEnableModal } from '@/features/auth/components/two-factor-enable-modal';
import { TwoFactorVerifyForm } from '@/features/auth/components/two-factor-verify-form';
import { getSession } from '@/lib/auth';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

describe('2FA verify modal', () => {
  it('requires a 6-digit code', async () => {
    signIn({ enabled_2fa: true, secret_2fa: 'S3CR3T' });
    const calls = mockFetch();
    renderWithProviders(<TwoFactorVerifyForm onVerified={() => undefined} />);
    await user().click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Please enter the 6-digit code')).toBeInTheDocument();
    await user().type(screen.getByLabelText(/Verification code/), '12a');
    await user().click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('The code must be 6 digits')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('verifies, stores the new tokens and calls back', async () => {
    signIn({ enabled_2fa: true, secret_2fa: 'S3CR3T' });
    const calls = mockFetch(
      on('POST', '/v1/auth/verify2fa', { body: { success: true, token: 'full', refresh_token: 'r2', verified_2fa: true } }),
    );
    const onVerified = vi.fn();
    renderWithProviders(<TwoFactorVerifyForm onVerified={onVerified} />);
    await user().type(screen.getByLabelText(/Verification code/), '123456');
    await user().click(screen.getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() => expect(onVerified).toHaveBeenCalled());
    expect(calls[0].body).toEqual({ secret: 'S3CR3T', token: '123456' });
    expect(getSession()).toMatchObject({ token: 'full', refreshToken: 'r2', verified2fa: true });
    expect(await screen.findByText('2FA Verified')).toBeInTheDocument();
  });

  it("a rejected code gives 'Invalid 2FA Code'", async () => {
    signIn({ enabled_2fa: true });
    mockFetch(on('POST', '/v1/auth/verify2fa', { status: 401, body: { success: false, message: 'bad code' } }));
    const onVerified = vi.fn();
    renderWithProviders(<TwoFactorVerifyForm onVerified={onVerified} />);
    await user().type(screen.getByLabelText(/Verification code/), '000000');
    await user().click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Invalid 2FA Code', { selector: '.mantine-Notification-description' })).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    // The field says it too.
    expect(screen.getByLabelText(/Verification code/)).toHaveAccessibleDescription('Invalid 2FA Code');
    expect(onVerified).not.toHaveBeenCalled();
    expect(getSession().verified2fa).toBe(false);
  });

  it('Back goes to /login and signs out', async () => {
    signIn({ enabled_2fa: true });
    mockFetch();
    const { router } = renderWithProviders(<TwoFactorVerifyForm onVerified={() => undefined} />, {
      routes: [{ path: '/login', element: <p>login page</p> }],
      path: '/two-factor-auth-verify',
      url: '/two-factor-auth-verify',
    });
    await user().click(screen.getByRole('link', { name: 'Back' }));
    expect(await screen.findByText('login page')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(getSession().token).toBeNull();
  });
});

describe('2FA enable modal', () => {
  it('shows instructions, a masked secret with an eye, the QR, and verifies a code', async () => {
    signIn({ uid: 'u-9' });
    const calls = mockFetch(
      on('POST', '/v1/auth/enable2fa/u-9', {
        body: { success: true, message: 'ok', secret: 'JBSWY3DPEHPK3PXP', secret_2fa_qr: 'data:image/svg+xml;base64,AAAA', otpauth_url: 'otpauth://totp/x' },
      }),
      on('POST', '/v1/auth/verify2fa', { body: { success: true, verified_2fa: true } }),
    );
    const onVerified = vi.fn();
    renderWithProviders(<TwoFactorEnableModal opened onClose={() => undefined} onVerified={onVerified} />);

    expect(await screen.findByText(/Scan the QR code/)).toBeInTheDocument();
    const secret = await screen.findByLabelText('Secret key');
    expect(secret).not.toHaveValue('JBSWY3DPEHPK3PXP');
    await user().click(screen.getByRole('button', { name: 'Show secret key' }));
    expect(secret).toHaveValue('JBSWY3DPEHPK3PXP');
    await user().click(screen.getByRole('button', { name: 'Hide secret key' }));
    expect(secret).not.toHaveValue('JBSWY3DPEHPK3PXP');
    expect(screen.getByRole('img', { name: 'QR code for your authenticator app' })).toHaveAttribute(
      'src',
      'data:image/svg+xml;base64,AAAA',
    );
    expect(calls[0].body).toEqual({ enabled_2fa: true });

    // Instructions collapse.
    await user().click(screen.getByRole('button', { name: /Verification instructions/ }));
    expect(screen.getByRole('button', { name: /Verification instructions/ })).toHaveAttribute('aria-expanded', 'false');

    await user().type(screen.getByLabelText(/Verification code/), '654321');
    await user().click(screen.getByRole('button', { name: 'Verify' }));
    await vi.waitFor(() => expect(onVerified).toHaveBeenCalled());
    expect(calls[1].body).toEqual({ secret: 'JBSWY3DPEHPK3PXP', token: '654321' });
    expect(getSession().user).toMatchObject({ enabled_2fa: true, confirmed_2fa: true });
    expect(getSession().verified2fa).toBe(true);
  });
});
