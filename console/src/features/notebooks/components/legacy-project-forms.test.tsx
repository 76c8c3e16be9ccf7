import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { LegacyProjectEditForm } from '@/features/notebooks/components/legacy-project-edit-form';
import { LegacyProjectForm } from '@/features/notebooks/components/legacy-project-form';
import type { DatasetsPicker } from '@/features/notebooks/components/slots';
import { legacyProjectNameError, notebookNameError, sizeError } from '@/features/notebooks/utils/names';
import { mockFetch, on } from '@/testing/fetch-mock';
import { legacyDetail, makeLegacyProject, sharedLegacyProject } from '@/testing/notebooks';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

/** A stand-in for the datasets feature's picker: the chosen ids, an error, and a button that adds 'd1'. */
const picker: DatasetsPicker = ({ value, onChange, error }) => (
  <div>
    <p>Chosen datasets: {value.join(', ') || 'none'}</p>
    {error && <p role="alert">{error}</p>}
    <button type="button" onClick={() => onChange([...value, 'd1'])}>
      add dataset d1
    </button>
  </div>
);

describe('legacy project names (spec 001 §5)', () => {
  it.each([
    ['Sales', null],
    ['sales-2024 q1/north', null],
    ['', 'Empty project name not allowed.'],
    ['   ', 'Empty project name not allowed.'],
    ['sales_2024', 'Please enter valid project name. No special character allowed.'],
    ['a.b', 'Please enter valid project name. No special character allowed.'],
    ['émile', 'Please enter valid project name. No special character allowed.'],
  ])('%j → %j', (name, error) => expect(legacyProjectNameError(name)).toBe(error));

  it('notebook names and workspace sizes', () => {
    expect(notebookNameError(' ')).toBe('Empty notebook name not allowed.');
    expect(notebookNameError('Sales review')).toBeNull();
    expect(notebookNameError('x'.repeat(129))).toBe('A notebook name has at most 128 characters.');
    expect(sizeError('5')).toBeNull();
    expect(sizeError('100')).toBeNull();
    for (const bad of ['0', '101', '2.5', 'ten', '']) expect(sizeError(bad)).toBe('Size is a whole number of GiB from 1 to 100.');
  });
});

const languageInput = () => screen.getByLabelText(/^Language/, { selector: 'input:not([type=hidden])' });

describe('/projects/new', () => {
  it("checks the name, the description and 'Dataset is required', then creates with the spec's defaults and opens the project", async () => {
    signIn({ first_name: 'Ada', last_name: 'Lovelace' });
    const calls = mockFetch(
      on('POST', '/v1/projects', { status: 201, body: { success: true, message: 'Project Created Successfully', project: makeLegacyProject({ id: 'p5' }) } }),
    );
    const { router } = renderWithProviders(<LegacyProjectForm datasetsPicker={picker} />, { url: '/projects/new', path: '/projects/new', routes: [landing('/projects/:id')] });
    expect(screen.getByRole('link', { name: 'Notebooks' })).toHaveAttribute('href', '/projects');
    expect(languageInput()).toHaveValue('Python');
    await user().click(screen.getByRole('button', { name: 'Create project' }));
    expect(await screen.findByText('Empty project name not allowed.')).toBeInTheDocument();
    expect(screen.getByText('Description is required')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Dataset is required');

    await user().type(screen.getByRole('textbox', { name: /^Name/ }), 'sales*');
    await user().click(screen.getByRole('button', { name: 'Create project' }));
    expect(await screen.findByText('Please enter valid project name. No special character allowed.')).toBeInTheDocument();
    await user().clear(screen.getByRole('textbox', { name: /^Name/ }));
    await user().type(screen.getByRole('textbox', { name: /^Name/ }), 'Sales/2024 north');
    await user().type(screen.getByRole('textbox', { name: /^Description/ }), 'Weekly sales');
    await user().click(languageInput());
    await user().click(await screen.findByRole('option', { name: 'R', hidden: true }));
    await user().click(screen.getByRole('button', { name: 'add dataset d1' }));
    expect(calls).toHaveLength(0);
    await user().click(screen.getByRole('button', { name: 'Create project' }));
    expect(await screen.findByText('landed on /projects/:id')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/projects/p5');
    expect(calls[0].body).toEqual({
      project: { name: 'Sales/2024 north', description: 'Weekly sales', language: 'r', dataset_ids: ['d1'], author: 'Ada Lovelace', size: '5', type: 'report' },
    });
    expect(screen.getByText('Project Created Successfully')).toBeInTheDocument();
  });

  it("shows the server's refusal in the form", async () => {
    signIn();
    mockFetch(on('POST', '/v1/projects', { status: 409, body: { success: false, code: 'name_taken', message: 'A project of that name exists' } }));
    renderWithProviders(<LegacyProjectForm datasetsPicker={picker} />);
    await user().type(screen.getByRole('textbox', { name: /^Name/ }), 'Sales');
    await user().type(screen.getByRole('textbox', { name: /^Description/ }), 'Weekly sales');
    await user().click(screen.getByRole('button', { name: 'add dataset d1' }));
    await user().click(screen.getByRole('button', { name: 'Create project' }));
    expect(await screen.findByText('A project of that name exists')).toBeInTheDocument();
  });
});

describe('/projects/{id}/edit', () => {
  it('edits description, type, size, author and datasets (not the name), then goes back to /projects', async () => {
    signIn();
    const project = makeLegacyProject({ id: 'p1', name: 'Sales', description: 'Old', author: 'Ada', dataset_ids: [] });
    const calls = mockFetch(
      on('GET', '/v1/projects/p1', { body: legacyDetail(project) }),
      on('PUT', '/v1/projects/p1', (c) => ({ body: { success: true, message: 'Project updated!', project: { ...project, ...(c.body as { project: object }).project } } })),
    );
    const { router } = renderWithProviders(<LegacyProjectEditForm id="p1" datasetsPicker={picker} />, { url: '/projects/p1/edit', path: '/projects/:id/edit', routes: [landing('/projects')] });
    const name = await screen.findByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Sales');
    expect(name).toBeDisabled();
    const size = screen.getByRole('textbox', { name: /^Size/ });
    await user().clear(size);
    await user().type(size, '500');
    await user().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Size is a whole number of GiB from 1 to 100.')).toBeInTheDocument();
    expect(screen.getByRole('alert')).toHaveTextContent('Dataset is required');
    await user().clear(size);
    await user().type(size, '20');
    await user().clear(screen.getByRole('textbox', { name: /^Description/ }));
    await user().type(screen.getByRole('textbox', { name: /^Description/ }), 'New description');
    await user().clear(screen.getByRole('textbox', { name: 'Type' }));
    await user().type(screen.getByRole('textbox', { name: 'Type' }), 'report-weekly');
    await user().type(screen.getByRole('textbox', { name: 'Author' }), ' Lovelace');
    await user().click(screen.getByRole('button', { name: 'add dataset d1' }));
    await user().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('landed on /projects')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/projects');
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      project: { description: 'New description', type: 'report-weekly', size: '20', author: 'Ada Lovelace', dataset_ids: ['d1'] },
    });
    expect(screen.getByText('Project updated!')).toBeInTheDocument();
  });

  it('says edit access is needed below edit', async () => {
    signIn();
    mockFetch(on('GET', '/v1/projects/p1', { body: legacyDetail(sharedLegacyProject('execute', { id: 'p1' })) }));
    renderWithProviders(<LegacyProjectEditForm id="p1" datasetsPicker={picker} />);
    expect(await screen.findByRole('alert')).toHaveTextContent('You need edit access');
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
  });

  it('a project the caller may not see is not found, with the way back', async () => {
    signIn();
    mockFetch(on('GET', '/v1/projects/p1', { status: 404, body: { success: false, code: 'not_found', message: 'Project not found' } }));
    renderWithProviders(<LegacyProjectEditForm id="p1" datasetsPicker={picker} />);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Project not found');
    expect(within(alert).getByRole('link', { name: 'Back to Notebooks' })).toHaveAttribute('href', '/projects');
  });
});
