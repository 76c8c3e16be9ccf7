import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

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
});
