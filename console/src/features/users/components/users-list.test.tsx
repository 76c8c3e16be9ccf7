import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { UsersList } from '@/features/users/components/users-list';
import { mockFetch, on } from '@/testing/fetch-mock';
import { landing, renderWithProviders } from '@/testing/render';
import { makeUser, signIn } from '@/testing/session';
import { user } from '@/testing/user';

const grace = makeUser({ id: '3', uid: 'g', first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com' });
const alan = makeUser({ id: '4', uid: 'a', first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', enabled_2fa: true });

describe('users list', () => {
  it('lists users and searches after the pause', async () => {
    signIn({ role: 'administrator', id: '1' });
    const calls = mockFetch(
      on('GET', '/v1/users', (c) => ({ body: { success: true, users: c.url.includes('searchTerm=gra') ? [grace] : [grace, alan] } })),
    );
    renderWithProviders(<UsersList organizationId="7" />);
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(calls[0].url).toBe('/v1/users?page=1&limit=10&organization=7');
    await user().type(screen.getByLabelText('Search users'), 'gra');
    await screen.findByText((_, el) => el?.tagName === 'TBODY' && within(el as HTMLElement).queryAllByRole('row').length === 1);
    expect(calls.at(-1)?.url).toBe('/v1/users?page=1&limit=10&organization=7&searchTerm=gra');
    // One request for the whole word, not one per key.
    expect(calls.filter((c) => c.url.includes('searchTerm'))).toHaveLength(1);
  });

  it('loads the next page of 10', async () => {
    signIn({ role: 'administrator', id: '1' });
    const page = (n: number, count: number) =>
      Array.from({ length: count }, (_, i) => makeUser({ id: `${n}-${i}`, uid: `${n}-${i}`, email: `u${n}-${i}@x.io` }));
    const calls = mockFetch(
      on('GET', '/v1/users', (c) => ({
        body: { success: true, users: c.url.includes('page=2') ? page(2, 3) : page(1, 10), total: 13, page: 1, limit: 10 },
      })),
    );
    renderWithProviders(<UsersList organizationId="7" />);
    const table = await screen.findByRole('table', { name: 'Users' });
    await user().click(screen.getByRole('button', { name: 'Load more' }));
    await vi.waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(14));
    expect(calls.some((c) => c.url === '/v1/users?page=2&limit=10&organization=7')).toBe(true);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it('shows an empty state', async () => {
    signIn({ role: 'administrator' });
    mockFetch(on('GET', '/v1/users', { body: { success: true, users: [] } }));
    renderWithProviders(<UsersList organizationId="7" />);
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
  });

  it("checks seats before 'Add User' and shows 'Limit Reached' when none are left", async () => {
    signIn({ role: 'administrator' });
    mockFetch(
      on('GET', '/v1/users', { body: { success: true, users: [grace] } }),
      on('GET', '/v1/organizations/7/availableSeats', { body: { success: true, availableSeats: 0, message: 'All 5 seats are taken.' } }),
    );
    renderWithProviders(<UsersList organizationId="7" />);
    await user().click(await screen.findByRole('button', { name: 'Add User' }));
    expect(await screen.findByText('Limit Reached')).toBeInTheDocument();
    expect(screen.getByText('All 5 seats are taken.')).toBeInTheDocument();
  });

  it("opens the new-user form when seats are free; 'Manage Flight Config' only for superadmins", async () => {
    signIn({ role: 'administrator' });
    mockFetch(
      on('GET', '/v1/users', { body: { success: true, users: [grace] } }),
      on('GET', '/v1/organizations/7/availableSeats', { body: { success: true, availableSeats: 2 } }),
    );
    const { router } = renderWithProviders(<UsersList organizationId="7" />, {
      routes: [landing('/organizations/:organizationId/users/new')],
    });
    expect(screen.queryByRole('link', { name: 'Manage Flight Config' })).not.toBeInTheDocument();
    await user().click(await screen.findByRole('button', { name: 'Add User' }));
    await screen.findByText(/landed on/);
    expect(router.state.location.pathname).toBe('/organizations/7/users/new');
  });

  it('superadmins get Manage Flight Config', async () => {
    signIn({ role: 'superadmin' });
    mockFetch(on('GET', '/v1/users', { body: { success: true, users: [] } }));
    renderWithProviders(<UsersList organizationId="7" />);
    expect(await screen.findByRole('link', { name: 'Manage Flight Config' })).toHaveAttribute('href', '/organizations/7/flight-settings');
  });

  it('deletes a user after confirmation', async () => {
    signIn({ role: 'administrator', id: '1' });
    const calls = mockFetch(
      on('GET', '/v1/users', { body: { success: true, users: [grace] } }),
      on('DELETE', '/v1/users/3', { body: { success: true } }),
    );
    renderWithProviders(<UsersList organizationId="7" />);
    await user().click(await screen.findByRole('button', { name: 'Delete grace@example.com' }));
    expect(await screen.findByText('Are you sure you want to delete this item?')).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('User Deleted')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/v1/users/3')).toBe(true);
  });
});
