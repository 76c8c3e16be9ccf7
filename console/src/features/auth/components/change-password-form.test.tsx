import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ChangePasswordForm } from '@/features/auth/components/change-password-form';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

async function fill(current: string, next: string, confirm: string) {
  if (current) await user().type(screen.getByLabelText(/Current password/), current);
  if (next) await user().type(screen.getByLabelText(/New password/), next);
  if (confirm) await user().type(screen.getByLabelText(/Confirm password/), confirm);
  await user().click(screen.getByRole('button', { name: 'Submit' }));
}

describe('change password', () => {
  it('requires all three fields', async () => {
    const calls = mockFetch();
    renderWithProviders(<ChangePasswordForm onDone={() => undefined} />);
    await fill('', '', '');
    expect(screen.getAllByText('This field is required')).toHaveLength(3);
    expect(calls).toHaveLength(0);
  });

  it("rejects a new password under 6 characters with the spec's message", async () => {
    const calls = mockFetch();
    renderWithProviders(<ChangePasswordForm onDone={() => undefined} />);
    await fill('old-pass', '12345', '12345');
    expect(screen.getByText('Password must be at least 6 characters long')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it("submits, shows 'Password Updated', then returns", async () => {
    signIn();
    const calls = mockFetch(on('PUT', '/v1/auth/changepassword', { body: { success: true } }));
    const onDone = vi.fn();
    renderWithProviders(<ChangePasswordForm onDone={onDone} />);
    await fill('old-pass', 'new-pass', 'new-pass');
    expect(await screen.findByText('Password Updated')).toBeInTheDocument();
    expect(calls[0].body).toEqual({ currentPassword: 'old-pass', newPassword: 'new-pass', confirmPassword: 'new-pass' });
    await user().click(screen.getByRole('button', { name: 'OK' }));
    expect(onDone).toHaveBeenCalled();
  });

  it('shows the server message in an error toast when the current password is wrong', async () => {
    signIn();
    mockFetch(on('PUT', '/v1/auth/changepassword', { status: 400, body: { success: false, code: 'wrong_password', message: 'Current password is incorrect' } }));
    renderWithProviders(<ChangePasswordForm onDone={() => undefined} />);
    await fill('bad-pass', 'new-pass', 'new-pass');
    expect(await screen.findByText('Current password is incorrect', { selector: '.mantine-Notification-description' })).toBeInTheDocument();
    // The field is marked, not only the toast.
    expect(screen.getByLabelText(/^Current password/)).toHaveAccessibleDescription('Current password is incorrect');
    expect(screen.getByLabelText(/^New password/)).not.toHaveAccessibleDescription('Current password is incorrect');
    expect(screen.queryByText('Password Updated')).not.toBeInTheDocument();
  });
});
