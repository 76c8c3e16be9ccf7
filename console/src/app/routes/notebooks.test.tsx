import { render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { AppProvider } from '@/app/provider';
import { createTestRouter } from '@/app/router';
import { makeDataset, sampleDataset } from '@/testing/datasets';
import { type Handler, mockFetch, on } from '@/testing/fetch-mock';
import { legacyDetail, legacyPage, makeLegacyProject, makeNotebook } from '@/testing/notebooks';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const roles = ['developer', 'management', 'administrator'];

function shell(notebookRoles: string[], ...more: Handler[]) {
  return mockFetch(
    on('GET', '/v1/flighting', {
      body: { success: true, message: '', organization: '7', flightings: [{ key: 'notebooks', name: 'Notebooks', active: true, user_roles: notebookRoles }], editable_roles: roles },
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
  entity_id: 'p1',
  entity_type: 'Project_V2',
  access_level: 'edit',
  can_share: true,
  levels: ['view', 'execute', 'edit'],
  owner: { uid: 'u-1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace' },
  shares: [],
  organization: null,
  members: [],
};

describe('/projects routes (legacy projects and notebooks)', () => {
  it("lists the legacy projects (no longer 'coming soon'), keeps the sidebar's Deprecated tag, and shares one as the project it is ('Project_V2')", async () => {
    signIn({ uid: 'u-1', email: 'ada@example.com' }, true);
    const calls = shell(
      roles,
      on('GET', '/v1/projects', { body: legacyPage([makeLegacyProject({ id: 'p1', name: 'Sales' })]) }),
      on('GET', '/v1/shares/sharedwith/p1', { body: sharedWith }),
    );
    renderAt('/projects');
    expect(await screen.findByRole('heading', { name: 'Notebooks' })).toBeInTheDocument();
    expect(screen.queryByText(/not available yet/)).not.toBeInTheDocument();
    const nav = within(screen.getByRole('navigation', { name: 'Main navigation' }));
    expect(nav.getByRole('link', { name: /Notebooks/ })).toHaveTextContent('Deprecated');
    await user().click(await screen.findByRole('button', { name: 'Actions for Sales' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Share', hidden: true }));
    expect(await screen.findByRole('dialog', { name: 'Share' })).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.url === '/v1/shares/sharedwith/p1?entityType=project_v2')).toBe(true));
  });

  it('a role without the notebooks flag gets the section closed and no call', async () => {
    signIn({ role: 'developer' }, true);
    const calls = shell(['administrator']);
    renderAt('/projects/new');
    expect(await screen.findByText('Notebooks are not enabled for your role.')).toBeInTheDocument();
    expect(calls.some((c) => c.url.startsWith('/v1/projects') || c.url.startsWith('/v1/datasets'))).toBe(false);
  });

  it('/projects/new picks datasets from the datasets feature (the sample too)', async () => {
    signIn({ first_name: 'Ada', last_name: 'Lovelace' }, true);
    const calls = shell(
      roles,
      on('GET', '/v1/datasets/listdatasets', {
        body: {
          success: true,
          datasets: [makeDataset({ id: 'd1', name: 'Stores' }), sampleDataset({ id: 'd2', name: 'Retail sales (sample)' })],
          total: 2,
          page: 1,
          page_size: 10,
          total_pages: 1,
        },
      }),
      on('POST', '/v1/projects', { status: 201, body: { success: true, message: 'Project Created Successfully', project: makeLegacyProject({ id: 'p5', name: 'Retail' }) } }),
      on('GET', '/v1/projects/p5', { body: legacyDetail(makeLegacyProject({ id: 'p5', name: 'Retail' })) }),
      on('GET', '/v1/notebook/p5', { body: { success: true, notebooks: [] } }),
    );
    const router = renderAt('/projects/new');
    await user().type(await screen.findByRole('textbox', { name: /^Name/ }), 'Retail');
    await user().type(screen.getByRole('textbox', { name: /^Description/ }), 'Store sales');
    await user().click(screen.getByRole('button', { name: 'Create project' }));
    expect(await screen.findByText('Dataset is required')).toBeInTheDocument();
    await user().click(screen.getByLabelText(/^Dataset/, { selector: 'input:not([type=hidden])' }));
    await user().click(await screen.findByRole('option', { name: 'Retail sales (sample)', hidden: true }));
    await user().click(screen.getByRole('button', { name: 'Create project' }));
    expect(await screen.findByRole('heading', { name: 'Retail' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/projects/p5');
    expect(calls.find((c) => c.method === 'POST' && c.url === '/v1/projects')!.body).toMatchObject({ project: { dataset_ids: ['d2'], author: 'Ada Lovelace' } });
  });

  it("publishes with the projects feature's insight dialog, the notebooks offered as driver files", async () => {
    signIn({}, true);
    const nb = makeNotebook({ id: 'n1', name: 'Explore', path: 'Explore.ipynb', project_id: 'p1' });
    shell(
      roles,
      on('GET', '/v1/projects/p1', { body: legacyDetail(makeLegacyProject({ id: 'p1', name: 'Sales', notebooks: [nb] })) }),
      on('GET', '/v1/notebook/p1', { body: { success: true, notebooks: [nb] } }),
      on('POST', '/v2/projects/repocontents/p1', { body: { success: true, contents: [] } }),
    );
    renderAt('/projects/p1');
    await user().click(await screen.findByRole('button', { name: 'Publish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish as an insight' });
    await user().click(within(dialog).getByLabelText(/^Driver file/, { selector: 'input:not([type=hidden])' }));
    expect(await screen.findByRole('option', { name: 'Explore.ipynb', hidden: true })).toBeInTheDocument();
  });
});
