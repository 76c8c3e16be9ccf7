import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { showsPassword, UserForm, USER_MESSAGES } from '@/features/users/components/user-form';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { makeUser, signIn } from '@/testing/session';
import { user } from '@/testing/user';

const admin = makeUser({ role: 'administrator', id: '9', uid: 'adm' });
const superadmin = makeUser({ role: 'superadmin', id: '10', uid: 'sup' });

describe('user form', () => {
  it('requires names, e-mail and password on create, and checks the e-mail', async () => {
    const calls = mockFetch();
    renderWithProviders(<UserForm mode="create" organizationId="7" me={admin} onDone={() => undefined} />);
    await user().click(screen.getByRole('button', { name: 'Create user' }));
    expect(screen.getByText(USER_MESSAGES.firstName)).toBeInTheDocument();
    expect(screen.getByText(USER_MESSAGES.lastName)).toBeInTheDocument();
    expect(screen.getByText(USER_MESSAGES.email)).toBeInTheDocument();
    expect(screen.getByText(USER_MESSAGES.password)).toBeInTheDocument();
    await user().type(screen.getByLabelText(/Email/), 'not-an-email');
    await user().click(screen.getByRole('button', { name: 'Create user' }));
    expect(screen.getByText('Email is invalid!')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('creates a user in the organization and toasts', async () => {
    signIn({ role: 'administrator' });
    const calls = mockFetch(on('POST', '/v1/users', { body: { success: true, user: makeUser({ id: '3' }) } }));
    const onDone = vi.fn();
    renderWithProviders(<UserForm mode="create" organizationId="7" me={admin} onDone={onDone} />);
    await user().type(screen.getByLabelText(/First name/), 'Grace');
    await user().type(screen.getByLabelText(/Last name/), 'Hopper');
    await user().type(screen.getByLabelText(/Email/), 'grace@example.com');
    await user().type(screen.getByLabelText(/^Password/), 'cobol-1959');
    await user().click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findByText('User created successfully!')).toBeInTheDocument();
    expect(onDone).toHaveBeenCalled();
    expect(calls[0].body).toEqual({
      user: {
        first_name: 'Grace',
        last_name: 'Hopper',
        email: 'grace@example.com',
        role: 'developer',
        timezone: 'UTC',
        password: 'cobol-1959',
        organization: '7',
      },
    });
  });

  it("shows 'Limit Reached' with the server's message when seats run out", async () => {
    signIn({ role: 'administrator' });
    mockFetch(on('POST', '/v1/users', { status: 200, body: { success: true, limitExceded: true, message: 'All 5 seats are taken.' } }));
    const onDone = vi.fn();
    renderWithProviders(<UserForm mode="create" organizationId="7" me={admin} onDone={onDone} />);
    await user().type(screen.getByLabelText(/First name/), 'G');
    await user().type(screen.getByLabelText(/Last name/), 'H');
    await user().type(screen.getByLabelText(/Email/), 'g@h.io');
    await user().type(screen.getByLabelText(/^Password/), 'secret1');
    await user().click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findByText('Limit Reached')).toBeInTheDocument();
    expect(screen.getByText('All 5 seats are taken.')).toBeInTheDocument();
    expect(onDone).not.toHaveBeenCalled();
  });

  it('from the admin portal a superadmin must pick the organization', async () => {
    signIn({ role: 'superadmin' });
    const calls = mockFetch(on('POST', '/v1/users', { body: { success: true, user: makeUser() } }));
    renderWithProviders(
      <UserForm
        mode="create"
        organizationId=""
        me={superadmin}
        onDone={() => undefined}
        organizationOptions={[
          { value: '7', label: 'Acme' },
          { value: '8', label: 'Globex' },
        ]}
      />,
    );
    await user().click(screen.getByRole('button', { name: 'Create user' }));
    expect(screen.getByText(USER_MESSAGES.organization)).toBeInTheDocument();
    await user().click(screen.getByLabelText(/^Organization/, { selector: 'input:not([type=hidden])' }));
    await user().click(await screen.findByRole('option', { name: 'Globex', hidden: true }));
    await user().type(screen.getByLabelText(/First name/), 'G');
    await user().type(screen.getByLabelText(/Last name/), 'H');
    await user().type(screen.getByLabelText(/Email/), 'g@h.io');
    await user().type(screen.getByLabelText(/^Password/), 'secret1');
    await user().click(screen.getByRole('button', { name: 'Create user' }));
    expect(await screen.findByText('User created successfully!')).toBeInTheDocument();
    expect((calls[0].body as { user: { organization: string } }).user.organization).toBe('8');
  });

  it('drops a blank password on edit', async () => {
    signIn({ role: 'administrator' });
    const target = makeUser({ id: '3', first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });
    const calls = mockFetch(on('PUT', '/v1/users/3', { body: { success: true, user: target } }));
    renderWithProviders(<UserForm mode="edit" organizationId="7" me={admin} user={target} onDone={() => undefined} />);
    await user().click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('User Updated successfully!')).toBeInTheDocument();
    expect(calls[0].body).toEqual({
      user: { first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', role: 'developer', timezone: 'UTC' },
    });
  });

  it('offers the superadmin role only to superadmins', async () => {
    renderWithProviders(<UserForm mode="create" organizationId="7" me={admin} onDone={() => undefined} />);
    await user().click(screen.getByLabelText(/^Role/, { selector: 'input:not([type=hidden])' }));
    expect(screen.queryByRole('option', { name: 'Superadmin', hidden: true })).not.toBeInTheDocument();
  });

  it.each([
    ['create, anyone', 'create', admin, undefined, true],
    ['edit by superadmin', 'edit', superadmin, makeUser({ role: 'superadmin' }), true],
    ['administrator editing a developer', 'edit', admin, makeUser(), true],
    ['administrator editing a superadmin', 'edit', admin, makeUser({ role: 'superadmin' }), false],
    ['developer editing', 'edit', makeUser(), makeUser(), false],
  ] as const)('password field: %s → %s', (_l, mode, me, target, shown) => {
    expect(showsPassword(mode, me, target)).toBe(shown);
  });
});
