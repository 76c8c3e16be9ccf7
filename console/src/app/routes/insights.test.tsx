import { render, screen, within } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { AppProvider } from '@/app/provider';
import { createTestRouter } from '@/app/router';
import { makeInsight } from '@/testing/insights';
import { type Handler, mockFetch, on } from '@/testing/fetch-mock';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const roles = ['developer', 'management', 'administrator'];

function shell(insightRoles: string[], ...more: Handler[]) {
  return mockFetch(
    on('GET', '/v1/flighting', {
      body: { success: true, message: '', organization: '7', flightings: [{ key: 'insights', name: 'Insights', active: true, user_roles: insightRoles }], editable_roles: roles },
    }),
    on('GET', '/v1/config', { body: { success: true, config: { supportEmail: 'help@ludis.test', documentationUrl: 'https://docs.test', roles, photoUpload: true } } }),
    ...more,
  );
}

function renderAt(url: string) {
  const router = createTestRouter(url);
  render(
    <AppProvider>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return router;
}

describe('/insights and home', () => {
  it('opens the Share dialog of the sharing feature from a card', async () => {
    signIn({}, true);
    const calls = shell(
      roles,
      on('GET', '/v1/applications/insights', { body: { success: true, applications: [makeInsight({ id: 'i1', name: 'Sales' })], total: 1, page: 1, pageSize: 12, totalPages: 1 } }),
      on('GET', '/v1/shares/sharedwith/i1', {
        body: { success: true, entity_id: 'i1', entity_type: 'Application', access_level: 'edit', can_share: true, levels: ['view', 'execute', 'edit'], owner: null, shares: [], organization: null, members: [] },
      }),
    );
    renderAt('/insights');
    const card = await screen.findByRole('article', { name: 'Sales' });
    await user().click(within(card).getByRole('button', { name: 'Actions for Sales' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Share', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Share' });
    expect(await within(dialog).findByPlaceholderText('Email, comma separated')).toBeInTheDocument();
    expect(calls.some((c) => c.url === '/v1/shares/sharedwith/i1?entityType=application')).toBe(true);
  });

  it('shows pinned insights as cards on home', async () => {
    signIn({}, true);
    shell(roles, on('GET', '/v1/applications/pin/list', { body: { success: true, applications: [makeInsight({ name: 'Pinned one', pinned: true })] } }));
    renderAt('/home');
    const list = await screen.findByRole('list', { name: 'Pinned insights' });
    const card = within(list).getByRole('article', { name: 'Pinned one' });
    expect(within(card).getByRole('button', { name: 'Unpin Pinned one' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('hides the pinned area when the insights flag excludes the role', async () => {
    signIn({ role: 'developer' }, true);
    const calls = shell(['management'], on('GET', '/v1/applications/pin/list', { body: { success: true, applications: [] } }));
    renderAt('/home');
    await screen.findByRole('heading', { name: 'Welcome, Ada!' });
    await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(screen.queryByText('Pinned insights')).not.toBeInTheDocument();
    expect(calls.some((c) => c.url === '/v1/applications/pin/list')).toBe(false);
  });
});
