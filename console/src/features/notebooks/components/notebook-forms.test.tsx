import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { NotebookCreateForm } from '@/features/notebooks/components/notebook-create-form';
import { NotebookEditForm } from '@/features/notebooks/components/notebook-edit-form';
import { notebookFileError, NotebookImportForm, notebookOptions } from '@/features/notebooks/components/notebook-import-form';
import { mockFetch, on } from '@/testing/fetch-mock';
import { legacyDetail, legacyPage, makeLegacyProject, makeNotebook, notebookDetail, sharedLegacyProject } from '@/testing/notebooks';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const project = makeLegacyProject({ id: 'p1', name: 'Sales' });
const created = makeNotebook({ id: 'n9', name: 'Review', project_id: 'p1' });

describe('/add-notebooks?project={id}', () => {
  it("requires a name ('Empty notebook name not allowed.') and a description, creates, and opens the project with it", async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/projects/p1', { body: legacyDetail(project) }),
      on('POST', '/v1/notebook', { status: 201, body: { success: true, message: 'Notebook created successfully!', notebook: created } }),
    );
    const { router } = renderWithProviders(<NotebookCreateForm projectId="p1" />, { url: '/add-notebooks?project=p1', path: '/add-notebooks', routes: [landing('/projects/:id')] });
    expect(await screen.findByRole('link', { name: 'Sales' })).toHaveAttribute('href', '/projects/p1');
    await user().type(screen.getByRole('textbox', { name: /^Notebook name/ }), '   ');
    await user().click(screen.getByRole('button', { name: 'Create notebook' }));
    expect(await screen.findByText('Empty notebook name not allowed.')).toBeInTheDocument();
    expect(screen.getByText('Description is required')).toBeInTheDocument();
    await user().type(screen.getByRole('textbox', { name: /^Notebook name/ }), 'Review ');
    await user().type(screen.getByRole('textbox', { name: /^Description/ }), 'Quarterly review');
    await user().click(screen.getByRole('button', { name: 'Create notebook' }));
    expect(await screen.findByText('landed on /projects/:id')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/projects/p1');
    expect(router.state.location.state).toEqual({ notebookId: 'n9' });
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ notebook: { name: 'Review', description: 'Quarterly review', project_id: 'p1' } });
    expect(screen.getByText('Notebook created successfully!')).toBeInTheDocument();
  });

  it('below edit access the form is not offered', async () => {
    signIn();
    mockFetch(on('GET', '/v1/projects/p1', { body: legacyDetail(sharedLegacyProject('view', { id: 'p1' })) }));
    renderWithProviders(<NotebookCreateForm projectId="p1" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('You need edit access');
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument();
  });

  it('without a project it says so', () => {
    signIn();
    mockFetch();
    renderWithProviders(<NotebookCreateForm projectId="" />);
    expect(screen.getByRole('alert')).toHaveTextContent('No project was given');
  });
});

describe('/import-notebooks?project={id}', () => {
  it('offers the active notebooks of the projects the user can see, grouped by project, and imports one', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/projects/p1', { body: legacyDetail(project) }),
      on('GET', '/v1/projects', {
        body: legacyPage([makeLegacyProject({ id: 'p2', name: 'Marketing', notebooks: [makeNotebook({ id: 'n1', name: 'Funnel', project_id: 'p2' }), makeNotebook({ id: 'n0', name: 'Gone', project_id: 'p2', status: 'deleted' })] })]),
      }),
      on('GET', '/v1/projects/share/list', {
        body: legacyPage([sharedLegacyProject('view', { id: 'p3', name: 'Finance', notebooks: [makeNotebook({ id: 'n2', name: 'Budget', project_id: 'p3' })] })]),
      }),
      on('POST', '/v1/notebook/import', { status: 201, body: { success: true, message: 'Notebook created successfully!', notebook: created } }),
    );
    const { router } = renderWithProviders(<NotebookImportForm projectId="p1" />, { url: '/import-notebooks?project=p1', path: '/import-notebooks', routes: [landing('/projects/:id')] });
    await user().click(await screen.findByRole('button', { name: 'Import notebook' }));
    expect(await screen.findByText('Please choose a notebook to import')).toBeInTheDocument();
    await user().click(screen.getByLabelText(/^Notebook\s*\*?$/, { selector: 'input:not([type=hidden])' }));
    expect(await screen.findByRole('option', { name: 'Funnel', hidden: true })).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Budget', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Gone', hidden: true })).not.toBeInTheDocument();
    await user().click(screen.getByRole('option', { name: 'Budget', hidden: true }));
    await user().click(screen.getByRole('button', { name: 'Import notebook' }));
    expect(await screen.findByText('landed on /projects/:id')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/projects/p1');
    expect(router.state.location.state).toEqual({ notebookId: 'n9' });
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ notebook: { project_id: 'p1' }, importNotebook: 'n2' });
    expect(screen.getByText('Notebook created successfully!')).toBeInTheDocument();
  });

  it('imports an .ipynb file from disk with its text, named after the file unless a name is given', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/projects/p1', { body: legacyDetail(project) }),
      on('GET', '/v1/projects', { body: legacyPage([]) }),
      on('GET', '/v1/projects/share/list', { body: legacyPage([]) }),
      on('POST', '/v1/notebook/import', { status: 201, body: { success: true, message: 'Notebook created successfully!', notebook: created } }),
    );
    const { router } = renderWithProviders(<NotebookImportForm projectId="p1" />, { url: '/import-notebooks?project=p1', path: '/import-notebooks', routes: [landing('/projects/:id')] });
    await user().click(await screen.findByRole('radio', { name: 'An .ipynb file' }));
    const input = document.querySelector<HTMLInputElement>('input[type=file]')!;
    const text = '{"cells": [], "nbformat": 4}';
    // The picker offers .ipynb files only; a file dropped on it anyway is refused.
    fireEvent.change(input, { target: { files: [new File(['x'], 'notes.txt', { type: 'text/plain' })] } });
    await user().click(screen.getByRole('button', { name: 'Import notebook' }));
    expect(await screen.findByText('Only .ipynb files can be imported')).toBeInTheDocument();
    fireEvent.change(input, { target: { files: [new File([text], 'Sales review.ipynb', { type: 'application/x-ipynb+json' })] } });
    await user().type(screen.getByRole('textbox', { name: /^Description/ }), 'From my laptop');
    await user().click(screen.getByRole('button', { name: 'Import notebook' }));
    expect(await screen.findByText('landed on /projects/:id')).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ notebookId: 'n9' });
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      notebook: { project_id: 'p1', name: 'Sales review', description: 'From my laptop' },
      file: { name: 'Sales review.ipynb', content: text },
    });
  });

  it('checks files and groups the choice by project, the target project first', () => {
    expect(notebookFileError(null)).toBe('Please choose an .ipynb file');
    expect(notebookFileError(new File(['{}'], 'a.json'))).toBe('Only .ipynb files can be imported');
    expect(notebookFileError(new File(['{}'], 'a.IPYNB'))).toBeNull();
    const big = new File(['x'], 'big.ipynb');
    Object.defineProperty(big, 'size', { value: 10 * 1024 * 1024 + 1 });
    expect(notebookFileError(big)).toBe('The file is larger than 10 MiB');
    const options = notebookOptions(
      [
        { ...makeNotebook({ id: 'a', name: 'A', project_id: 'p2' }), projectName: 'Other' },
        { ...makeNotebook({ id: 'b', name: 'B', project_id: 'p1' }), projectName: 'Sales' },
      ],
      'p1',
    );
    expect(options).toEqual([
      { group: 'Sales', items: [{ value: 'b', label: 'B' }] },
      { group: 'Other', items: [{ value: 'a', label: 'A' }] },
    ]);
  });
});

describe('/notebooks/{id}/edit', () => {
  it('edits name and description, then goes back to the project page', async () => {
    signIn();
    const nb = makeNotebook({ id: 'n1', name: 'Explore', description: 'First look', project_id: 'p1' });
    const calls = mockFetch(
      on('GET', '/v1/notebook/detail/n1', { body: notebookDetail(nb) }),
      on('PUT', '/v1/notebook/n1', { body: { success: true, message: 'Notebook updated!', notebook: { ...nb, name: 'Explore sales' } } }),
    );
    const { router } = renderWithProviders(<NotebookEditForm id="n1" />, { url: '/notebooks/n1/edit', path: '/notebooks/:id/edit', routes: [landing('/projects/:id')] });
    const name = await screen.findByRole('textbox', { name: /^Notebook name/ });
    expect(name).toHaveValue('Explore');
    await user().clear(name);
    await user().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Empty notebook name not allowed.')).toBeInTheDocument();
    await user().type(name, 'Explore sales');
    await user().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('landed on /projects/:id')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/projects/p1');
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ notebook: { name: 'Explore sales', description: 'First look' } });
    expect(screen.getByText('Notebook updated!')).toBeInTheDocument();
  });

  it('below edit access it says so', async () => {
    signIn();
    mockFetch(on('GET', '/v1/notebook/detail/n1', { body: notebookDetail(makeNotebook({ id: 'n1' }), undefined, 'view') }));
    renderWithProviders(<NotebookEditForm id="n1" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('You need edit access');
  });
});
