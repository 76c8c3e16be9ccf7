import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { ChangePasswordRoute } from '@/app/routes/auth/change-password';
import { ProfileRoute } from '@/app/routes/profile';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { makeUser, signIn } from '@/testing/session';
import { user } from '@/testing/user';

const config = { success: true, config: { supportEmail: 'help@ludis.test', documentationUrl: 'https://docs.test', roles: [], photoUpload: true } };

describe('profile settings page', () => {
  it('keeps the open Advanced section and what was typed when the profile is fetched again', async () => {
    signIn();
    // The second copy of the profile (after enabling 2FA, say) has a first name changed elsewhere.
    let fetched = 0;
    mockFetch(
      on('GET', '/v1/users/1', () => {
        fetched += 1;
        return { body: { success: true, user: makeUser({ first_name: fetched === 1 ? 'Ada' : 'Augusta' }) } };
      }),
      on('GET', '/v1/config', { body: config }),
    );
    const { queryClient } = renderWithProviders(<ProfileRoute />);
    await vi.waitFor(() => expect(fetched).toBe(1));
    expect(await screen.findByDisplayValue('Ada')).toBeInTheDocument();

    await user().click(screen.getByRole('button', { name: /Advanced/ }));
    await user().type(screen.getByLabelText('Source-control username'), 'ada-l');
    await queryClient.invalidateQueries({ queryKey: ['users'] });
    // The untouched field takes the server's new value...
    expect(await screen.findByDisplayValue('Augusta')).toBeInTheDocument();
    // ...while the section stays open with what was typed, and the link still works.
    expect(screen.getByRole('button', { name: /Advanced/ })).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByLabelText('Source-control username')).toHaveValue('ada-l');
    expect(screen.getByRole('link', { name: 'Change Password' })).toHaveAttribute('href', '/changepassword');
  });

  it("offers 'Change Password' without opening Advanced, and after a submit", async () => {
    signIn();
    mockFetch(
      on('GET', '/v1/users/1', { body: { success: true, user: makeUser() } }),
      on('GET', '/v1/config', { body: config }),
      on('PUT', '/v1/users/1', { body: { success: true, message: 'Profile updated successfully!', user: makeUser() } }),
    );
    renderWithProviders(<ProfileRoute />);
    expect(await screen.findByDisplayValue('Ada')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Advanced/ })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.getByRole('link', { name: 'Change Password' })).toHaveAttribute('href', '/changepassword');
    await user().click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Change Password' })).toHaveAttribute('href', '/changepassword');
  });

  it('Change password: the breadcrumb back to Profile settings, as on other pages, and the form', async () => {
    signIn();
    mockFetch();
    renderWithProviders(<ChangePasswordRoute />);
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' });
    expect(within(crumbs).getByRole('link', { name: 'Profile settings' })).toHaveAttribute('href', '/profile-setting');
    expect(screen.getByRole('heading', { name: 'Change password' })).toBeInTheDocument();
    expect(screen.getByLabelText(/Current password/)).toBeInTheDocument();
  });
});
