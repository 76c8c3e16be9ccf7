import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { CreateProjectModal, imagesFor } from '@/features/projects/components/create-project-modal';
import { mockFetch, on } from '@/testing/fetch-mock';
import { IMAGES, makeProject, SIZES } from '@/testing/projects';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

function mount(created = makeProject({ id: 'p3', name: 'Churn' })) {
  signIn({ has_git_token: false });
  const calls = mockFetch(
    on('GET', '/v2/cluster/dockerimages/list', { body: { success: true, dockerImages: IMAGES } }),
    on('GET', '/v2/cluster/sizes/list', { body: SIZES }),
    on('POST', '/v2/projects', { status: 201, body: { success: true, project: created } }),
  );
  const onClose = vi.fn();
  const view = renderWithProviders(<CreateProjectModal onClose={onClose} />, { url: '/projectsv2', path: '/projectsv2', routes: [landing('/projectsv2/:id')] });
  return { calls, onClose, ...view };
}

describe('create project', () => {
  it('offers the images made for the language, else all of them', () => {
    expect(imagesFor(IMAGES, 'r').map((i) => i.id)).toEqual(['r-base']);
    expect(imagesFor(IMAGES, 'python').map((i) => i.id)).toEqual(['python-data', 'python-apps']);
    expect(imagesFor(IMAGES.slice(0, 1), 'r').map((i) => i.id)).toEqual(['python-data']);
  });

  it("refuses an empty name and one with other characters than the spec's", async () => {
    const { calls } = mount();
    const dialog = await screen.findByRole('dialog', { name: 'Create project' });
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Empty project name not allowed.')).toBeInTheDocument();
    await user().type(within(dialog).getByRole('textbox', { name: 'Name' }), '   ');
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Empty project name not allowed.')).toBeInTheDocument();
    await user().type(within(dialog).getByRole('textbox', { name: 'Name' }), 'sales#1');
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('Project name can only contain letters, numbers, underscores, hyphens, and periods')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('creates a hosted project (no git token needed) with language and image, and opens it', async () => {
    const { calls, router } = mount();
    const dialog = await screen.findByRole('dialog', { name: 'Create project' });
    await user().type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Churn model_v1.2');
    await user().type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Who leaves');
    // Python first: its images; R: the R image.
    const image = within(dialog).getByLabelText('Image', { selector: 'input:not([type=hidden])' });
    await vi.waitFor(() => expect(image).toHaveValue('Python 3.12 (data stack)'));
    await user().click(within(dialog).getByRole('radio', { name: 'R' }));
    expect(image).toHaveValue('R 4.4 (tidyverse)');
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('landed on /projectsv2/:id')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/projectsv2/p3');
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      project: { name: 'Churn model_v1.2', description: 'Who leaves', language: 'r', image_id: 'r-base' },
    });
    expect(screen.getByText('Project Created Successfully')).toBeInTheDocument();
  });

  it("offers the administrator's sizes, the default first, and sends the one chosen", async () => {
    const { calls } = mount();
    const dialog = await screen.findByRole('dialog', { name: 'Create project' });
    await user().type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Trainer');
    const size = within(dialog).getByRole('combobox', { name: 'Size' });
    await vi.waitFor(() => expect(size).toHaveValue('Default (medium · 0.5–2 CPU · 1Gi memory · 4Gi disk)'));
    await user().click(size);
    await user().click(await screen.findByRole('option', { name: 'large · 1.5–2 CPU · 4Gi memory · 8Gi disk', hidden: true }));
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    await vi.waitFor(() => expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({ project: { name: 'Trainer', size_id: 'large' } }));
  });

  it('shows a refusal in the dialog', async () => {
    signIn();
    mockFetch(
      on('GET', '/v2/cluster/dockerimages/list', { body: { success: true, dockerImages: IMAGES } }),
      on('POST', '/v2/projects', { status: 409, body: { success: false, code: 'name_taken', message: 'A project with this name exists' } }),
    );
    renderWithProviders(<CreateProjectModal onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog', { name: 'Create project' });
    await user().type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Churn{Enter}');
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('A project with this name exists');
  });
});
