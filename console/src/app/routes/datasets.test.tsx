import { render, screen, within } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';

import { AppProvider } from '@/app/provider';
import { createTestRouter } from '@/app/router';
import { listing, makeDataset } from '@/testing/datasets';
import { type Handler, mockFetch, on } from '@/testing/fetch-mock';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const roles = ['developer', 'management', 'administrator'];

function shell(datasetRoles: string[], ...more: Handler[]) {
  return mockFetch(
    on('GET', '/v1/flighting', {
      body: { success: true, message: '', organization: '7', flightings: [{ key: 'datasets', name: 'Datasets', active: true, user_roles: datasetRoles }], editable_roles: roles },
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

const sharedWith = {
  success: true,
  entity_id: 'd1',
  entity_type: 'Dataset',
  access_level: 'edit',
  can_share: true,
  // Even if a server offered it, the console leaves 'execute' out for datasets.
  levels: ['view', 'execute', 'edit'],
  owner: { uid: 'u-1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
  shares: [{ id: 's1', to_entity_type: 'User', to_entity_id: 'g', to_entity_uid: 'g', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', access_level: 'view', managed: false }],
  organization: null,
  members: [],
};

describe('/datasets routes', () => {
  it("lists datasets (no longer 'coming soon') and shares one with Viewer or Editor only", async () => {
    signIn({ uid: 'u-1', email: 'ada@example.com' }, true);
    const calls = shell(
      roles,
      on('GET', '/v1/datasets/listdatasets', { body: { success: true, datasets: [makeDataset({ id: 'd1', name: 'Sales' })], total: 1, page: 1, page_size: 10, total_pages: 1 } }),
      on('GET', '/v1/shares/sharedwith/d1', { body: sharedWith }),
      on('POST', '/v1/applications/share', { body: { success: true, message: 'Dataset shared!' } }),
    );
    renderAt('/datasets');
    expect(await screen.findByRole('heading', { name: 'Datasets' })).toBeInTheDocument();
    expect(screen.queryByText(/not available yet/)).not.toBeInTheDocument();
    await user().click(await screen.findByRole('button', { name: 'Actions for Sales' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Share', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Share' });
    const level = await within(dialog).findByRole('combobox', { name: 'Access level' });
    expect(within(level).getAllByRole('option').map((o) => o.textContent)).toEqual(['Viewer', 'Editor']);
    const person = within(dialog).getByRole('combobox', { name: 'Access for grace@example.com' });
    expect(within(person).getAllByRole('option').map((o) => o.textContent)).toEqual(['Viewer', 'Editor', 'Revoke Access']);
    expect(calls.some((c) => c.url === '/v1/shares/sharedwith/d1?entityType=dataset')).toBe(true);

    await user().type(within(dialog).getByPlaceholderText('Email, comma separated'), 'linus@example.com');
    await user().selectOptions(level, 'Editor');
    await user().click(within(dialog).getByRole('button', { name: 'add' }));
    expect(await screen.findByText('Dataset shared!')).toBeInTheDocument();
    const share = calls.find((c) => c.method === 'POST' && c.url === '/v1/applications/share');
    expect(share?.body).toEqual({
      share: { entity_id: 'd1', entity_type: 'Dataset', shares: [{ share_type: 'share', email: 'linus@example.com', access_level: 'edit', to_entity_type: 'User' }] },
    });
  });

  it('opens the Share dialog from the dataset page and routes the edit page', async () => {
    signIn({ uid: 'u-1', email: 'ada@example.com' }, true);
    const dataset = makeDataset({ id: 'd1', name: 'Sales' });
    shell(
      roles,
      on('POST', '/v1/datasets/getdatasetdetails/d1', { body: { success: true, dataset } }),
      on('POST', '/v1/datasets/listfiles/d1', { body: listing('', []) }),
      on('GET', '/v1/shares/sharedwith/d1', { body: sharedWith }),
    );
    const router = renderAt('/datasets/d1');
    await user().click(await screen.findByRole('button', { name: 'Share' }));
    const dialog = await screen.findByRole('dialog', { name: 'Share' });
    expect(within(dialog).getByText('Sales')).toBeInTheDocument();
    expect(await within(dialog).findByRole('combobox', { name: 'Access level' })).toBeInTheDocument();
    await user().click(within(dialog).getByRole('button', { name: 'Done' }));
    await user().click(screen.getByRole('link', { name: 'Edit' }));
    expect(await screen.findByRole('button', { name: 'Update Dataset' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/datasets/edit/d1');
    await user().click(within(screen.getByRole('navigation', { name: 'Breadcrumb' })).getByRole('link', { name: 'Sales' }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/datasets/d1'));
  });

  it('gives a viewer the discussion of the dataset (comments), without Edit or Share', async () => {
    signIn({ uid: 'u-2', email: 'grace@example.com' }, true);
    const dataset = makeDataset({ id: 'd1', name: 'Sales', access_level: 'view', is_owner: false });
    const calls = shell(
      roles,
      on('POST', '/v1/datasets/getdatasetdetails/d1', { body: { success: true, dataset } }),
      on('POST', '/v1/datasets/listfiles/d1', { body: listing('', []) }),
      on('POST', '/v1/comment/list', { body: { success: true, conversation: [] } }),
    );
    renderAt('/datasets/d1');
    await user().click(await screen.findByRole('button', { name: 'Discussion' }));
    expect(await screen.findByText('No comments yet. Start the discussion.')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/v1/comment/list')?.body).toEqual({ comments: { reference_id: 'd1' } });
    expect(screen.queryByRole('button', { name: 'Share' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
  });

  it('routes /datasets/new to the import form', async () => {
    signIn({}, true);
    shell(roles);
    renderAt('/datasets/new');
    expect(await screen.findByRole('heading', { name: 'Import dataset' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Create dataset' })).toBeInTheDocument();
  });

  it('says the section is off when the datasets flag leaves the role out', async () => {
    signIn({ role: 'developer' }, true);
    const calls = shell(['management']);
    renderAt('/datasets');
    expect(await screen.findByText('Datasets are not enabled for your role.')).toBeInTheDocument();
    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    expect(within(nav).queryByRole('link', { name: 'Datasets' })).not.toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/v1/datasets/'))).toBe(false);
  });
});
