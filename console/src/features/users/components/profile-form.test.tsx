import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { GIT_BOTH_REQUIRED, IMAGE_TYPE_ERROR, ProfileForm, photoUrl } from '@/features/users/components/profile-form';
import { getSession } from '@/lib/auth';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { makeUser, signIn } from '@/testing/session';
import { user } from '@/testing/user';

describe('profile settings', () => {
  it('shows e-mail, role, status and API token read-only', async () => {
    const account = makeUser({ api_key: 'key-123', role: 'administrator' });
    renderWithProviders(<ProfileForm user={account} />);
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getByLabelText('Email')).toBeDisabled();
    expect(screen.getByLabelText('Status')).toBeDisabled();
    expect(screen.getByLabelText('API token')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('API token')).toHaveValue('key-123');
    expect(screen.getByLabelText('Role', { selector: 'input:not([type=hidden])' })).toBeDisabled();
    expect(screen.getByLabelText('Role', { selector: 'input:not([type=hidden])' })).toHaveValue('Administrator');
  });

  it('asks for both source-control fields when only one is filled', async () => {
    const calls = mockFetch();
    renderWithProviders(<ProfileForm user={makeUser()} />);
    await user().click(screen.getByRole('button', { name: /Advanced/ }));
    await user().type(screen.getByLabelText('Source-control username'), 'ada');
    await user().click(screen.getByRole('button', { name: 'Submit' }));
    expect(screen.getByText(GIT_BOTH_REQUIRED)).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('saves names, date format, time zone and git details, then toasts', async () => {
    signIn();
    const calls = mockFetch(
      on('PUT', '/v1/users/1', (call) => ({
        body: { success: true, user: { ...makeUser(), ...(call.body as { user: object }).user } },
      })),
    );
    renderWithProviders(<ProfileForm user={makeUser()} />);
    const first = screen.getByLabelText(/First name/);
    await user().clear(first);
    await user().type(first, 'Augusta');
    await user().click(screen.getByRole('button', { name: /Advanced/ }));
    await user().type(screen.getByLabelText('Source-control username'), 'ada');
    await user().type(screen.getByLabelText('Source-control access token'), 'ghp_x');
    await user().click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(calls[0].body).toEqual({
      user: {
        first_name: 'Augusta',
        last_name: 'Lovelace',
        date_format: 'MM/DD/YY',
        timezone: 'UTC',
        git_username: 'ada',
        git_token: 'ghp_x',
      },
    });
    expect(getSession().user?.first_name).toBe('Augusta');
  });

  it('generates an API token when there is none', async () => {
    signIn();
    const calls = mockFetch(on('POST', '/v1/users/1/api_key', { body: { success: true, message: 'ok', api_key: 'lk_new' } }));
    renderWithProviders(<ProfileForm user={makeUser({ api_key: null })} />);
    expect(screen.getByLabelText('API token')).toHaveValue('');
    await user().click(screen.getByRole('button', { name: 'Generate' }));
    await vi.waitFor(() => expect(screen.getByLabelText('API token')).toHaveValue('lk_new'));
    expect(calls).toHaveLength(1);
    expect(getSession().user?.api_key).toBe('lk_new');
  });

  it('offers the four date formats', async () => {
    renderWithProviders(<ProfileForm user={makeUser()} />);
    const input = screen.getByLabelText('Date format', { selector: 'input:not([type=hidden])' });
    await user().click(input);
    const listbox = await screen.findByRole('listbox', { name: 'Date format', hidden: true });
    const options = within(listbox).getAllByRole('option', { hidden: true });
    expect(options.map((o) => o.textContent)).toEqual(['MM/DD/YY', 'DD/MM/YY', 'MMMM/DD/YY', 'DD/MMMM/YY']);
  });

  it('refuses images other than png, jpg and jpeg', async () => {
    renderWithProviders(<ProfileForm user={makeUser()} />);
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'photo.gif', { type: 'image/gif' })] } });
    expect(await screen.findByText(IMAGE_TYPE_ERROR)).toBeInTheDocument();
  });

  it('uploads a new photo through the presigned URL before saving', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/users/presign_url', {
        body: { success: true, urls: [{ presigned_url: 'https://s3.test/put?sig=1', photo_path: 'users/u-1/photo.png' }] },
      }),
      on('PUT', 'https://s3.test/put', { status: 200 }),
      on('PUT', '/v1/users/1', { body: { success: true, user: makeUser({ photo_path: 'users/u-1/photo.png' }) } }),
    );
    renderWithProviders(<ProfileForm user={makeUser()} />);
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['x'], 'me.png', { type: 'image/png' })] } });
    await screen.findByText('me.png will be uploaded when you submit');
    await user().click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Profile updated successfully!')).toBeInTheDocument();
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /v1/users/presign_url?user_name=u-1&ext=.png',
      'PUT https://s3.test/put?sig=1',
      'PUT /v1/users/1',
    ]);
    expect((calls[2].body as { user: { photo_path: string } }).user.photo_path).toBe('users/u-1/photo.png');
  });
});

describe('photoUrl', () => {
  it('uses the presigned address and never an object key', () => {
    expect(photoUrl({ photo_url: 'http://s3/p.png?X-Amz-Signature=1', photo_path: 'user asset images/u/p.png' })).toBe(
      'http://s3/p.png?X-Amz-Signature=1',
    );
    expect(photoUrl({ photo_path: 'user asset images/u/p.png' })).toBeNull();
    expect(photoUrl({ photo_path: 'https://cdn.example/p.png' })).toBe('https://cdn.example/p.png');
    expect(photoUrl({})).toBeNull();
  });
});
