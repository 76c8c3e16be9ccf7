import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { TwoFactorSection } from '@/features/auth/components/two-factor-section';
import { getSession } from '@/lib/auth';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { makeUser, signIn } from '@/testing/session';
import { user } from '@/testing/user';

const PATH = '/v1/auth/enable2fa/u-1';

function renderActive() {
  signIn({ uid: 'u-1', enabled_2fa: true, confirmed_2fa: true }, true);
  renderWithProviders(<TwoFactorSection user={makeUser({ uid: 'u-1', enabled_2fa: true, confirmed_2fa: true })} />);
}

async function openDisable() {
  await user().click(screen.getByRole('button', { name: 'Disable' }));
  const dialog = await screen.findByRole('dialog', { name: 'Disable two-factor authentication' });
  return { dialog, submit: () => user().click(within(dialog).getByRole('button', { name: 'Disable' })) };
}

describe('switching 2FA off', () => {
  it('asks for the password before calling the API', async () => {
    const calls = mockFetch();
    renderActive();
    const { dialog, submit } = await openDisable();
    expect(dialog).toHaveTextContent('Confirm it is you');
    await submit();
    expect(await screen.findByText('Please enter your password')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('sends the password and updates the session', async () => {
    const calls = mockFetch(on('POST', PATH, { body: { success: true, message: '2FA Status Updated Successfully!' } }));
    renderActive();
    const { submit } = await openDisable();
    await user().type(screen.getByLabelText(/Current password/), 'my-password');
    await submit();
    expect(await screen.findByText('2FA Status Updated Successfully!')).toBeInTheDocument();
    expect(calls[0].body).toEqual({ enabled_2fa: false, password: 'my-password' });
    expect(getSession().user).toMatchObject({ enabled_2fa: false, confirmed_2fa: false });
  });

  it('or a current code from the authenticator app', async () => {
    const calls = mockFetch(on('POST', PATH, { body: { success: true, message: '2FA Status Updated Successfully!' } }));
    renderActive();
    const { submit } = await openDisable();
    await user().click(screen.getByRole('radio', { name: 'Authenticator code' }));
    await user().type(screen.getByLabelText(/Verification code/), '12a');
    await submit();
    expect(screen.getByText('The code must be 6 digits')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
    await user().clear(screen.getByLabelText(/Verification code/));
    await user().type(screen.getByLabelText(/Verification code/), '123456');
    await submit();
    expect(await screen.findByText('2FA Status Updated Successfully!')).toBeInTheDocument();
    expect(calls[0].body).toEqual({ enabled_2fa: false, code: '123456' });
  });

  it("shows the server's refusal in the dialog and keeps 2FA on", async () => {
    mockFetch(on('POST', PATH, { status: 400, body: { success: false, code: 'wrong_password', message: 'Current password is incorrect' } }));
    renderActive();
    const { dialog, submit } = await openDisable();
    await user().type(screen.getByLabelText(/Current password/), 'wrong');
    await submit();
    expect(await screen.findByRole('alert')).toHaveTextContent('Current password is incorrect');
    expect(dialog).toBeInTheDocument();
    expect(getSession().user).toMatchObject({ enabled_2fa: true });
  });
});
