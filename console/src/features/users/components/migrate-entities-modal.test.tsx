import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { UsersList } from '@/features/users/components/users-list';
import { MIGRATE_MESSAGES } from '@/features/users/components/migrate-entities-modal';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { makeUser, signIn } from '@/testing/session';
import { user } from '@/testing/user';

const grace = makeUser({ id: 'g', uid: 'g', first_name: 'Grace', last_name: 'Hopper', email: 'grace@example.com', organization: '7' });
const alan = makeUser({ id: 'a', uid: 'a', first_name: 'Alan', last_name: 'Turing', email: 'alan@example.com', organization: '7' });

async function openFor(email: string) {
  await user().click(await screen.findByRole('button', { name: `Migrate entities of ${email}` }));
  return screen.findByRole('dialog', { name: 'Migrate entities' });
}

async function choose(label: RegExp, option: string) {
  await user().click(screen.getByLabelText(label, { selector: 'input:not([type=hidden])' }));
  await user().click(await screen.findByRole('option', { name: option, hidden: true }));
}

describe('migrate entities', () => {
  it("asks for every field ('Please fill in all fields') before it sends anything", async () => {
    signIn({ role: 'administrator', id: '1' });
    const calls = mockFetch(on('GET', '/v1/users', { body: { success: true, users: [grace, alan] } }));
    renderWithProviders(<UsersList organizationId="7" />);
    const dialog = await openFor('grace@example.com');
    await user().click(within(dialog).getByRole('button', { name: 'Migrate' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(MIGRATE_MESSAGES.required);
    await choose(/^Entity type/, 'Workflows');
    await user().click(within(dialog).getByRole('button', { name: 'Migrate' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(MIGRATE_MESSAGES.required);
    expect(calls.some((c) => c.url.includes('migrateEntityOwner'))).toBe(false);
  });

  it('moves the kind to another user of the organization (never to the source) and says how many', async () => {
    signIn({ role: 'administrator', id: '1' });
    const calls = mockFetch(
      on('GET', '/v1/users', { body: { success: true, users: [grace, alan] } }),
      on('POST', '/v1/auth/migrateEntityOwner', { body: { success: true, message: 'Entities migrated successfully', migrated: 3 } }),
    );
    renderWithProviders(<UsersList organizationId="7" />);
    const dialog = await openFor('grace@example.com');
    await choose(/^Entity type/, 'Workflows');
    await user().click(screen.getByLabelText(/^Destination user/, { selector: 'input:not([type=hidden])' }));
    expect(await screen.findByRole('option', { name: 'Alan Turing (alan@example.com)', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Grace Hopper (grace@example.com)', hidden: true })).not.toBeInTheDocument();
    await user().click(screen.getByRole('option', { name: 'Alan Turing (alan@example.com)', hidden: true }));
    await user().click(within(dialog).getByRole('button', { name: 'Migrate' }));
    expect(await screen.findByText('3 workflows moved to Alan Turing')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/v1/auth/migrateEntityOwner')?.body).toEqual({
      entityType: 'workflow',
      sourceUserId: 'g',
      destinationUserId: 'a',
    });
    await vi.waitFor(() => expect(screen.queryByRole('dialog', { name: 'Migrate entities' })).not.toBeInTheDocument());
  });

  it("says 'Failed to migrate entities' with the server's reason and keeps the choices", async () => {
    signIn({ role: 'administrator', id: '1' });
    mockFetch(
      on('GET', '/v1/users', { body: { success: true, users: [grace, alan] } }),
      on('POST', '/v1/auth/migrateEntityOwner', { status: 403, body: { success: false, code: 'forbidden', message: 'Only administrators can do that' } }),
    );
    renderWithProviders(<UsersList organizationId="7" />);
    const dialog = await openFor('grace@example.com');
    await choose(/^Entity type/, 'Datasets');
    await choose(/^Destination user/, 'Alan Turing (alan@example.com)');
    await user().click(within(dialog).getByRole('button', { name: 'Migrate' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(`${MIGRATE_MESSAGES.failed}: Only administrators can do that`);
    expect(within(dialog).getByLabelText(/^Destination user/, { selector: 'input:not([type=hidden])' })).toHaveValue('Alan Turing (alan@example.com)');
  });
});
