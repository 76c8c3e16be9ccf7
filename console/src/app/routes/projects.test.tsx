import { render, screen, waitFor, within } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';

import { AppProvider } from '@/app/provider';
import { createTestRouter } from '@/app/router';
import { makeDataset } from '@/testing/datasets';
import { type Handler, mockFetch, on } from '@/testing/fetch-mock';
import { detail, IMAGES, item, makeProject, projectsPage } from '@/testing/projects';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';
import { makeWorkflow, workflowsPage } from '@/testing/workflows';

const roles = ['developer', 'management', 'administrator'];

function shell(projectRoles: string[], ...more: Handler[]) {
  return mockFetch(
    on('GET', '/v1/flighting', {
      body: { success: true, message: '', organization: '7', flightings: [{ key: 'projects', name: 'Projects', active: true, user_roles: projectRoles }], editable_roles: roles },
    }),
    on('GET', '/v1/config', { body: { success: true, config: { supportEmail: 'help@ludis.test', documentationUrl: 'https://docs.test', roles, photoUpload: true } } }),
    on('GET', '/v2/cluster/dockerimages/list', { body: { success: true, dockerImages: IMAGES } }),
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

describe('/projectsv2 routes', () => {
  it('lists projects (no longer a placeholder) and shares one as Project_V2 with Viewer, Executor or Editor', async () => {
    signIn({ uid: 'u-1', email: 'ada@example.com' }, true);
    const calls = shell(
      roles,
      on('GET', '/v2/projects', { body: projectsPage([makeProject({ id: 'p1', name: 'Forecast' })]) }),
      on('GET', '/v1/shares/sharedwith/p1', { body: sharedWith }),
    );
    renderAt('/projectsv2');
    expect(await screen.findByRole('heading', { name: 'Projects' })).toBeInTheDocument();
    expect(screen.queryByText(/not available yet/)).not.toBeInTheDocument();
    await user().click(await screen.findByRole('button', { name: 'Actions for Forecast' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Share', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Share' });
    const level = await within(dialog).findByRole('combobox', { name: 'Access level' });
    expect(within(level).getAllByRole('option').map((o) => o.textContent)).toEqual(['Viewer', 'Executor', 'Editor']);
    expect(calls.some((c) => c.url === '/v1/shares/sharedwith/p1?entityType=project_v2')).toBe(true);
  });

  it('asks for the git username and token (PUT /v1/git_detail) before importing, then shows the import form', async () => {
    signIn({ has_git_token: false }, true);
    const calls = shell(
      roles,
      on('GET', '/v2/projects', { body: projectsPage([]) }),
      on('PUT', '/v1/git_detail', { body: { success: true, message: 'Profile updated successfully!' } }),
    );
    renderAt('/projectsv2');
    await user().click(await screen.findByRole('button', { name: 'Import project' }));
    const prompt = await screen.findByRole('dialog', { name: 'Connect your git account' });
    await user().type(within(prompt).getByRole('textbox', { name: 'Git username' }), 'ada');
    await user().type(within(prompt).getByLabelText(/Personal access token/), 'tok{Enter}');
    expect(await screen.findByRole('dialog', { name: 'Import project' })).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/v1/git_detail')?.body).toEqual({ git_username: 'ada', git_token: 'tok' });
  });

  it('edits a project with the image selector of the insights feature', async () => {
    signIn({}, true);
    shell(
      roles,
      on('GET', '/v2/projects', { body: projectsPage([makeProject({ id: 'p1', name: 'Forecast' })]) }),
      on('GET', '/v1/images/defaults', { body: { success: true, images: [{ name: 'Blue', url: '/images/defaults/blue.png' }] } }),
    );
    renderAt('/projectsv2');
    await user().click(await screen.findByRole('button', { name: 'Actions for Forecast' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Edit', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Forecast' });
    expect(await within(dialog).findByRole('button', { name: /Upload/ })).toBeInTheDocument();
  });

  it('opens the workspace with its discussion (comments), datasets panel and Share', async () => {
    signIn({ uid: 'u-1', email: 'ada@example.com' }, true);
    const project = makeProject({ id: 'p1', name: 'Forecast' });
    const calls = shell(
      roles,
      on('GET', '/v2/projects/p1', { body: detail(project) }),
      on('POST', '/v2/projects/repocontents/p1', { body: { success: true, contents: [item('app.py')] } }),
      on('POST', '/v1/comment/list', { body: { success: true, conversation: [] } }),
      on('GET', '/v1/datasets/listdatasets', { body: { success: true, datasets: [makeDataset({ id: 'd1', name: 'Sales' })], total: 1, page: 1, page_size: 10, total_pages: 1 } }),
      on('GET', '/v1/shares/sharedwith/p1', { body: sharedWith }),
      on('GET', '/v2/workflows', { body: workflowsPage([makeWorkflow({ id: 'w1', name: 'Nightly ETL' })]) }),
    );
    renderAt('/projectsv2/p1');
    expect(await screen.findByRole('heading', { name: 'Forecast' })).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Discussion' }));
    expect(await screen.findByText('No comments yet. Start the discussion.')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/v1/comment/list')?.body).toEqual({ comments: { reference_id: 'p1' } });
    await user().click(screen.getByRole('button', { name: 'Close the discussion' }));
    await user().click(screen.getByRole('tab', { name: 'Datasets' }));
    expect(await screen.findByRole('button', { name: 'Sales' })).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Share' }));
    expect(await screen.findByRole('dialog', { name: 'Share' })).toBeInTheDocument();
    // The linked workflows come from the workflows feature, this project's only.
    await user().click(screen.getByRole('tab', { name: 'Workflows' }));
    expect(await screen.findByRole('link', { name: 'Nightly ETL' })).toHaveAttribute('href', '/workflows/w1');
    const asked = calls.find((c) => c.url.startsWith('/v2/workflows?'));
    expect(new URL(asked!.url, 'http://x').searchParams.get('projectId')).toBe('p1');
    expect(screen.getByRole('button', { name: 'Create workflow' })).toBeInTheDocument();
  });

  it('says the section is off when the projects flag leaves the role out', async () => {
    signIn({ role: 'developer' }, true);
    const calls = shell(['management']);
    renderAt('/projectsv2/p1');
    expect(await screen.findByText('Projects are not enabled for your role.')).toBeInTheDocument();
    await waitFor(() => expect(calls.some((c) => c.url.startsWith('/v2/projects'))).toBe(false));
  });
});
