import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import type { SharedWithResponse } from '@/lib/api/types';
import { emailProblem, levelsFor, SHARE_MESSAGES, ShareModal, splitEmails } from '@/features/sharing/components/share-modal';
import { type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

function sharedWith(patch: Partial<SharedWithResponse> = {}): SharedWithResponse {
  return {
    success: true,
    entity_id: 'e1',
    entity_type: 'Application',
    access_level: 'edit',
    can_share: true,
    levels: ['view', 'execute', 'edit'],
    owner: { uid: 'u-1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
    shares: [
      { id: 's1', to_entity_type: 'User', to_entity_id: 'g', to_entity_uid: 'g', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', access_level: 'view', managed: false },
      { id: 's2', to_entity_type: 'User', to_entity_id: 'k', to_entity_uid: 'k', email: 'ken@example.com', first_name: 'Ken', last_name: 'Thompson', access_level: 'execute', managed: true },
    ],
    organization: { id: '7', name: 'Acme', access_level: null, managed: false },
    members: [
      { uid: 'g', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', access_level: 'view' },
      { uid: 'l', email: 'linus@example.com', first_name: 'Linus', last_name: 'T', access_level: null },
      { uid: 'm', email: 'margaret@example.com', first_name: 'Margaret', last_name: 'H', access_level: null },
    ],
    ...patch,
  };
}

function setup(data: SharedWithResponse = sharedWith(), entityType: 'Application' | 'Dataset' = 'Application') {
  signIn({ uid: 'u-1', email: 'ada@example.com' });
  const calls = mockFetch(
    on('GET', '/v1/shares/sharedwith/e1', { body: data }),
    on('POST', '/v1/applications/share', { body: { success: true, message: `${entityType} shared!` } }),
  );
  const onClose = vi.fn();
  renderWithProviders(<ShareModal opened entityId="e1" entityType={entityType} entityLabel="Sales board" onClose={onClose} />);
  return { calls, onClose };
}

const shareBodies = (calls: MockCall[]) => calls.filter((c) => c.method === 'POST').map((c) => c.body);

describe('share modal helpers', () => {
  it('splits on commas and trims', () => {
    expect(splitEmails(' a@x.io,b@x.io , ,c@x.io ')).toEqual(['a@x.io', 'b@x.io', 'c@x.io']);
  });
  it("finds 'Cannot share to yourself!' and 'Email is invalid!'", () => {
    expect(emailProblem(['b@x.io', 'ADA@example.com'], 'ada@example.com')).toBe('Cannot share to yourself!');
    expect(emailProblem(['b@x.io', 'not-an-email'], 'ada@example.com')).toBe('Email is invalid!');
    expect(emailProblem(['b@x.io', 'c@y.org'], 'ada@example.com')).toBeNull();
  });
  it('offers no Executor for datasets', () => {
    expect(levelsFor('Application')).toEqual(['view', 'execute', 'edit']);
    expect(levelsFor('Dataset')).toEqual(['view', 'edit']);
    expect(levelsFor('Dataset', ['view', 'execute', 'edit'])).toEqual(['view', 'edit']);
  });
});

describe('share modal', () => {
  it("is titled 'Share', loads who has access and keeps 'add' disabled while the box is empty", async () => {
    const { calls } = setup();
    const dialog = await screen.findByRole('dialog', { name: 'Share' });
    expect(await within(dialog).findByText('People with access')).toBeInTheDocument();
    expect(calls[0].url).toBe('/v1/shares/sharedwith/e1?entityType=application');
    const box = within(dialog).getByPlaceholderText('Email, comma separated');
    expect(within(dialog).getByRole('button', { name: 'add' })).toBeDisabled();
    const access = within(dialog).getByRole('combobox', { name: 'Access level' });
    expect(access).toHaveValue('view');
    expect(within(access).getAllByRole('option').map((o) => o.textContent)).toEqual(['Viewer', 'Executor', 'Editor']);
    await user().type(box, '   ');
    expect(within(dialog).getByRole('button', { name: 'add' })).toBeDisabled();
    await user().type(box, 'x');
    expect(within(dialog).getByRole('button', { name: 'add' })).toBeEnabled();
  });

  it("refuses the caller's own address and bad addresses before calling", async () => {
    const { calls } = setup();
    const box = await screen.findByPlaceholderText(SHARE_MESSAGES.placeholder);
    await user().type(box, 'b@x.io, ada@example.com');
    await user().click(screen.getByRole('button', { name: 'add' }));
    expect(await screen.findByText('Cannot share to yourself!', { selector: '.mantine-Notification-description' })).toBeInTheDocument();
    expect(box).toHaveAccessibleDescription('Cannot share to yourself!');
    await user().clear(box);
    await user().type(box, 'b@x.io, nope');
    await user().click(screen.getByRole('button', { name: 'add' }));
    expect(await screen.findByText('Email is invalid!', { selector: '.mantine-Notification-description' })).toBeInTheDocument();
    expect(shareBodies(calls)).toHaveLength(0);
  });

  it("shares with every address at the chosen level and toasts the server's message", async () => {
    const { calls } = setup();
    const box = await screen.findByPlaceholderText(SHARE_MESSAGES.placeholder);
    await user().type(box, ' b@x.io ,c@y.org');
    await user().selectOptions(screen.getByRole('combobox', { name: 'Access level' }), 'Executor');
    await user().click(screen.getByRole('button', { name: 'add' }));
    expect(await screen.findByText('Application shared!')).toBeInTheDocument();
    expect(shareBodies(calls)).toEqual([
      {
        share: {
          entity_id: 'e1',
          entity_type: 'Application',
          shares: [
            { share_type: 'share', email: 'b@x.io', access_level: 'execute', to_entity_type: 'User' },
            { share_type: 'share', email: 'c@y.org', access_level: 'execute', to_entity_type: 'User' },
          ],
        },
      },
    ]);
    expect(box).toHaveValue('');
  });

  it('shows the owner fixed as Owner, changes and revokes a person, and leaves managed entries read-only', async () => {
    const { calls } = setup();
    const list = await screen.findByRole('list', { name: 'People with access' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]).toHaveTextContent('Ada Lovelace');
    expect(rows[0]).toHaveTextContent('Owner');
    expect(within(rows[0]).queryByRole('combobox')).not.toBeInTheDocument();

    const grace = within(list).getByRole('combobox', { name: 'Access for grace@example.com' });
    expect(within(grace).getAllByRole('option').map((o) => o.textContent)).toEqual(['Viewer', 'Executor', 'Editor', 'Revoke Access']);
    await user().selectOptions(grace, 'Editor');
    await screen.findByText('Application shared!');
    await user().selectOptions(within(list).getByRole('combobox', { name: 'Access for grace@example.com' }), 'Revoke Access');
    await vi.waitFor(() => expect(shareBodies(calls)).toHaveLength(2));
    expect(shareBodies(calls).map((b) => (b as { share: { shares: unknown[] } }).share.shares)).toEqual([
      [{ share_type: 'share', to_entity_type: 'User', to_entity_uid: 'g', access_level: 'edit' }],
      [{ share_type: 'unshare', to_entity_type: 'User', to_entity_uid: 'g', access_level: 'view' }],
    ]);

    const ken = within(list).getAllByTestId('share-person').find((r) => r.dataset.email === 'ken@example.com')!;
    expect(within(ken).queryByRole('combobox')).not.toBeInTheDocument();
    expect(within(ken).getByText('Managed by the resource')).toBeInTheDocument();
    expect(within(ken).getByText('Executor')).toBeInTheDocument();
  });

  it("shares with the organization", async () => {
    const { calls } = setup();
    await user().selectOptions(await screen.findByRole('combobox', { name: 'Organization access' }), 'Viewer');
    await vi.waitFor(() => expect(shareBodies(calls)).toHaveLength(1));
    expect((shareBodies(calls)[0] as { share: { shares: unknown[] } }).share.shares).toEqual([
      { share_type: 'share', to_entity_type: 'Organization', access_level: 'view' },
    ]);
    expect(screen.getByText('Everyone at Acme')).toBeInTheDocument();
  });

  it("selects from the organization: select all, deselect sends 'unshare', Apply", async () => {
    const { calls } = setup();
    expect(await screen.findByText('Select from Organization')).toBeInTheDocument();
    const apply = screen.getByRole('button', { name: 'Apply' });
    expect(apply).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Grace Hopper (grace@example.com)' })).toBeChecked();
    await user().click(screen.getByRole('checkbox', { name: 'Select all' }));
    expect(screen.getByRole('checkbox', { name: 'Linus T (linus@example.com)' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Margaret H (margaret@example.com)' })).toBeChecked();
    await user().click(screen.getByRole('checkbox', { name: 'Grace Hopper (grace@example.com)' }));
    await user().click(screen.getByRole('button', { name: 'Apply' }));
    await vi.waitFor(() => expect(shareBodies(calls)).toHaveLength(1));
    expect((shareBodies(calls)[0] as { share: { shares: unknown[] } }).share.shares).toEqual([
      { share_type: 'unshare', to_entity_type: 'User', to_entity_uid: 'g', access_level: 'view' },
      { share_type: 'share', to_entity_type: 'User', to_entity_uid: 'l', access_level: 'view' },
      { share_type: 'share', to_entity_type: 'User', to_entity_uid: 'm', access_level: 'view' },
    ]);
  });

  it("keeps the shared item's name in the dialog's header, under the title 'Share'", async () => {
    setup();
    const dialog = await screen.findByRole('dialog', { name: 'Share' });
    const header = within(dialog).getByRole('heading', { name: 'Share' }).closest('header');
    expect(header).not.toBeNull();
    expect(within(header as HTMLElement).getByText('Sales board')).toHaveAttribute('title', 'Sales board');
  });

  it('marks the e-mail box when the server knows no such user, and unmarks it on typing', async () => {
    signIn({ uid: 'u-1', email: 'ada@example.com' });
    mockFetch(
      on('GET', '/v1/shares/sharedwith/e1', { body: sharedWith() }),
      on('POST', '/v1/applications/share', { status: 400, body: { success: false, code: 'unknown_user', message: 'No user with the e-mail nobody@example.com' } }),
    );
    renderWithProviders(<ShareModal opened entityId="e1" entityType="Application" entityLabel="Sales board" onClose={() => undefined} />);
    const box = await screen.findByRole('textbox', { name: 'Emails' });
    await user().type(box, 'nobody@example.com');
    await user().click(screen.getByRole('button', { name: 'add' }));
    await vi.waitFor(() => expect(box).toHaveAccessibleDescription('No user with the e-mail nobody@example.com'));
    await user().type(box, 'x');
    expect(box).not.toHaveAccessibleDescription('No user with the e-mail nobody@example.com');
    // A problem found before calling marks it too.
    await user().clear(box);
    await user().type(box, 'not-an-address');
    await user().click(screen.getByRole('button', { name: 'add' }));
    expect(box).toHaveAccessibleDescription(SHARE_MESSAGES.invalid);
  });

  it("takes back the dialog's earlier error toasts when a share succeeds", async () => {
    signIn({ uid: 'u-1', email: 'ada@example.com' });
    let refuse = true;
    mockFetch(
      on('GET', '/v1/shares/sharedwith/e1', { body: sharedWith() }),
      on('POST', '/v1/applications/share', () =>
        refuse
          ? { status: 400, body: { success: false, code: 'unknown_user', message: 'No user with the e-mail nobody@example.com' } }
          : { body: { success: true, message: 'Application shared!' } },
      ),
    );
    renderWithProviders(<ShareModal opened entityId="e1" entityType="Application" entityLabel="Sales board" onClose={() => undefined} />);
    const toast = (text: string) => screen.queryByText(text, { selector: '.mantine-Notification-description' });
    const box = await screen.findByRole('textbox', { name: 'Emails' });
    // One refusal found before calling, one by the server.
    await user().type(box, 'not-an-address');
    await user().click(screen.getByRole('button', { name: 'add' }));
    await vi.waitFor(() => expect(toast(SHARE_MESSAGES.invalid)).toBeInTheDocument());
    await user().clear(box);
    await user().type(box, 'nobody@example.com');
    await user().click(screen.getByRole('button', { name: 'add' }));
    await vi.waitFor(() => expect(toast('No user with the e-mail nobody@example.com')).toBeInTheDocument());

    refuse = false;
    await user().clear(box);
    await user().type(box, 'grace@example.com');
    await user().click(screen.getByRole('button', { name: 'add' }));
    await vi.waitFor(() => expect(toast('Application shared!')).toBeInTheDocument());
    await vi.waitFor(() => expect(toast('No user with the e-mail nobody@example.com')).not.toBeInTheDocument());
    expect(toast(SHARE_MESSAGES.invalid)).not.toBeInTheDocument();
  });

  it("shows 'Select from Organization' even when nobody else is there yet", async () => {
    setup(sharedWith({ members: [] }));
    expect(await screen.findByText('Select from Organization')).toBeInTheDocument();
    expect(screen.getByText('Nobody else at Acme to pick yet.')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select all' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();
  });

  it("offers no Executor for a dataset; 'Done' closes", async () => {
    const { onClose } = setup(sharedWith({ entity_type: 'Dataset', levels: ['view', 'edit'] }), 'Dataset');
    const access = await screen.findByRole('combobox', { name: 'Access level' });
    expect(within(access).getAllByRole('option').map((o) => o.textContent)).toEqual(['Viewer', 'Editor']);
    expect(within(screen.getByRole('combobox', { name: 'Access for grace@example.com' })).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Viewer',
      'Editor',
      'Revoke Access',
    ]);
    await user().click(screen.getByRole('button', { name: 'Done' }));
    expect(onClose).toHaveBeenCalled();
  });

  it('shows a read-only list to someone who cannot share', async () => {
    setup(sharedWith({ can_share: false, access_level: 'view', members: [] }));
    expect(await screen.findByText('People with access')).toBeInTheDocument();
    expect(screen.queryByPlaceholderText(SHARE_MESSAGES.placeholder)).not.toBeInTheDocument();
    expect(screen.queryByRole('combobox')).not.toBeInTheDocument();
    expect(screen.queryByText('Select from Organization')).not.toBeInTheDocument();
  });
});
