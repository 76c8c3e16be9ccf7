import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { emptyProjectsMessage, ProjectsList } from '@/features/projects/components/projects-list';
import type { GitTokenPrompt } from '@/features/projects/components/slots';
import { type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { makeProject, projectsPage, sharedProject } from '@/testing/projects';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { inputTimes, user } from '@/testing/user';

const listCalls = (calls: MockCall[]) => calls.filter((c) => c.url.startsWith('/v2/projects?') || c.url === '/v2/projects');
const query = (c: MockCall) => Object.fromEntries(new URL(c.url, 'http://x').searchParams);
const row = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name}\\b`) });

describe('projects list (/projectsv2)', () => {
  it('asks for page 1 of 12 with filter all and shows language, owner, access and status per row', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v2/projects', {
        body: projectsPage([
          makeProject({ id: 'p1', name: 'Forecast', status: 'running' }),
          sharedProject('edit', { name: 'Budget', language: 'r' }),
          sharedProject('execute', { name: 'Census' }),
          sharedProject('view', { name: 'Iris' }),
        ]),
      }),
    );
    renderWithProviders(<ProjectsList />);
    const table = await screen.findByRole('table', { name: 'Projects' });
    expect(query(listCalls(calls)[0])).toEqual({ filter: 'all', page: '1', pageSize: '12' });
    const forecast = within(table).getByRole('row', { name: /^Forecast/ });
    expect(within(forecast).getByRole('link', { name: 'Forecast' })).toHaveAttribute('href', '/projectsv2/p1');
    expect(forecast).toHaveTextContent('Python');
    expect(forecast).toHaveTextContent('You');
    expect(forecast).toHaveTextContent('owner');
    expect(forecast).toHaveTextContent('running');
    expect(row('Budget')).toHaveTextContent('R');
    expect(row('Budget')).toHaveTextContent('Grace Hopper');
    expect(row('Census')).toHaveTextContent('execute');
    // Only edit access shows the menu (spec 001 §6).
    expect(within(forecast).getByRole('button', { name: 'Actions for Forecast' })).toBeInTheDocument();
    expect(within(row('Budget')).getByRole('button', { name: 'Actions for Budget' })).toBeInTheDocument();
    expect(within(row('Census')).queryByRole('button')).not.toBeInTheDocument();
    expect(within(row('Iris')).queryByRole('button')).not.toBeInTheDocument();
  });

  it("says on a row's status what it waits for", async () => {
    signIn();
    const why = 'waiting for a node: 0/2 nodes are available: 1 Insufficient cpu.';
    mockFetch(on('GET', '/v2/projects', { body: projectsPage([makeProject({ id: 'p3', name: 'Greedy', status: 'starting', status_message: why })]) }));
    renderWithProviders(<ProjectsList />);
    expect(await screen.findByLabelText(`starting: ${why}`)).toHaveTextContent('starting');
  });

  it('opens the workspace when a row is clicked', async () => {
    signIn();
    mockFetch(on('GET', '/v2/projects', { body: projectsPage([makeProject({ id: 'p7', name: 'Forecast' })]) }));
    const { router } = renderWithProviders(<ProjectsList />, { url: '/projectsv2', path: '/projectsv2', routes: [landing('/projectsv2/:id')] });
    await user().click(within(await screen.findByRole('row', { name: /^Forecast/ })).getByText('Python'));
    expect(await screen.findByText('landed on /projectsv2/:id')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/projectsv2/p7');
  });

  it('switches filters with the tabs (kept in the address) and says what an empty filter means', async () => {
    signIn();
    const calls = mockFetch(on('GET', '/v2/projects', (c) => ({ body: projectsPage(query(c).filter === 'all' ? [makeProject({ name: 'Mine' })] : []) })));
    const { router } = renderWithProviders(<ProjectsList />, { url: '/projectsv2', path: '/projectsv2' });
    await screen.findByRole('row', { name: /^Mine/ });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['All', 'Created by me', 'Shared with me']);

    await user().click(screen.getByRole('tab', { name: 'Shared with me' }));
    expect(await screen.findByText('Nothing shared with you yet')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?filter=shared');
    expect(query(listCalls(calls).at(-1)!).filter).toBe('shared');
    // No create button in the empty state of the shared filter.
    expect(screen.queryByRole('button', { name: 'Create a project' })).not.toBeInTheDocument();

    await user().click(screen.getByRole('tab', { name: 'Created by me' }));
    expect(await screen.findByText('You have not created any projects yet')).toBeInTheDocument();
    expect(query(listCalls(calls).at(-1)!).filter).toBe('owned');
    expect(screen.getByRole('button', { name: 'Create a project' })).toBeInTheDocument();
  });

  it('has an empty state per filter and for a search', () => {
    expect(emptyProjectsMessage('all', '').title).toBe('No projects yet');
    expect(emptyProjectsMessage('owned', '').title).toBe('You have not created any projects yet');
    expect(emptyProjectsMessage('shared', '').title).toBe('Nothing shared with you yet');
    expect(emptyProjectsMessage('owned', 'q').title).toBe('No projects match “q”');
  });

  it('pages with Prev, the page number and Next; another filter starts on page 1', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v2/projects', (c) => {
        const p = Number(query(c).page);
        return { body: projectsPage([makeProject({ name: `On page ${p}` })], { page: p, total: 30, total_pages: 3 }) };
      }),
    );
    renderWithProviders(<ProjectsList />);
    await screen.findByRole('row', { name: /^On page 1/ });
    const pager = screen.getByRole('navigation', { name: 'Project pages' });
    expect(within(pager).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Prev' })).toBeDisabled();
    await user().click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByRole('row', { name: /^On page 2/ });
    await user().click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByRole('row', { name: /^On page 3/ });
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(listCalls(calls).map((c) => query(c).page)).toEqual(['1', '2', '3']);
    await user().click(screen.getByRole('tab', { name: 'Created by me' }));
    await vi.waitFor(() => expect(query(listCalls(calls).at(-1)!)).toMatchObject({ filter: 'owned', page: '1' }));
  });

  it('searches once, 500 ms after the typing stops, from page 1', async () => {
    signIn();
    const calls = mockFetch(on('GET', '/v2/projects', (c) => ({ body: projectsPage(query(c).search ? [] : [makeProject()], { total_pages: 2 }) })));
    renderWithProviders(<ProjectsList />);
    await screen.findByRole('table', { name: 'Projects' });
    await user().click(screen.getByRole('button', { name: 'Next' }));
    await vi.waitFor(() => expect(query(listCalls(calls).at(-1)!).page).toBe('2'));
    const box = screen.getByRole('textbox', { name: 'Search projects' });
    const typed = inputTimes(box);
    await user().type(box, 'sal');
    expect(await screen.findByText('No projects match “sal”')).toBeInTheDocument();
    const searches = listCalls(calls).filter((c) => query(c).search);
    expect(searches).toHaveLength(1);
    expect(query(searches[0])).toMatchObject({ search: 'sal', page: '1' });
    expect(searches[0].at - typed[2]).toBeGreaterThanOrEqual(SEARCH_DEBOUNCE_MS - 1);
  });

  it("deletes from the row menu after 'Are you sure you want to delete this Project?' with 'Project Deleted!'", async () => {
    signIn();
    let gone = false;
    const calls = mockFetch(
      on('GET', '/v2/projects', () => ({ body: projectsPage(gone ? [] : [makeProject({ id: 'p7', name: 'Old' })]) })),
      on('DELETE', '/v2/projects/p7', () => {
        gone = true;
        return { body: { success: true, message: 'Project Deleted!' } };
      }),
    );
    renderWithProviders(<ProjectsList />);
    await user().click(await screen.findByRole('button', { name: 'Actions for Old' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Delete', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(dialog).toHaveTextContent('Are you sure you want to delete this Project?');
    await user().click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Project Deleted!')).toBeInTheDocument();
    expect(await screen.findByText('No projects yet')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('offers Share through the app layer and Edit with the edit modal', async () => {
    signIn();
    const onShare = vi.fn();
    const calls = mockFetch(
      on('GET', '/v2/projects', { body: projectsPage([makeProject({ id: 'p7', name: 'Forecast', description: 'Old' })]) }),
      on('PUT', '/v2/projects/p7', (c) => ({ body: { success: true, message: 'Project updated!', project: makeProject({ id: 'p7', ...(c.body as { entity: object }).entity }) } })),
    );
    renderWithProviders(<ProjectsList onShare={onShare} />);
    await user().click(await screen.findByRole('button', { name: 'Actions for Forecast' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Share', hidden: true }));
    expect(onShare).toHaveBeenCalledWith(expect.objectContaining({ id: 'p7' }));

    await user().click(screen.getByRole('button', { name: 'Actions for Forecast' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Edit', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Forecast' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    await user().clear(name);
    await user().type(name, 'Bad/name');
    await user().click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Project name can only contain letters, numbers, underscores, hyphens, and periods')).toBeInTheDocument();
    await user().clear(name);
    await user().type(name, 'Forecast v2.1');
    await user().type(within(dialog).getByRole('textbox', { name: 'Description' }), ' and more');
    await user().click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Project updated!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({ entity: { name: 'Forecast v2.1', description: 'Old and more', img_path: null } });
  });

  describe('import project', () => {
    const prompt: GitTokenPrompt = ({ opened, onSaved }) =>
      opened ? (
        <button type="button" onClick={onSaved}>
          git token prompt: save
        </button>
      ) : null;

    it('asks for the git username and token first when none is saved, then imports', async () => {
      signIn({ has_git_token: false });
      mockFetch(on('GET', '/v2/projects', { body: projectsPage([]) }));
      renderWithProviders(<ProjectsList gitTokenPrompt={prompt} />);
      await user().click(await screen.findByRole('button', { name: 'Import project' }));
      expect(screen.queryByRole('dialog', { name: 'Import project' })).not.toBeInTheDocument();
      await user().click(screen.getByRole('button', { name: 'git token prompt: save' }));
      expect(await screen.findByRole('dialog', { name: 'Import project' })).toBeInTheDocument();
    });

    it('goes straight to the import form with a saved token, derives name and author, and submits on Enter', async () => {
      signIn({ has_git_token: true });
      const created = makeProject({ id: 'p9', name: 'churn-model' });
      const calls = mockFetch(
        on('GET', '/v2/projects', { body: projectsPage([]) }),
        on('POST', '/v2/projects', { status: 201, body: { success: true, project: created } }),
      );
      renderWithProviders(<ProjectsList gitTokenPrompt={prompt} />, { url: '/projectsv2', path: '/projectsv2', routes: [landing('/projectsv2/:id')] });
      await user().click(await screen.findByRole('button', { name: 'Import project' }));
      const dialog = await screen.findByRole('dialog', { name: 'Import project' });
      const url = within(dialog).getByRole('textbox', { name: 'Repository URL' });
      await user().type(url, 'ftp://example.com/x{Enter}');
      expect(within(dialog).getByText(/Please enter the HTTPS address of a git repository/)).toBeInTheDocument();
      await user().clear(url);
      await user().type(url, 'https://gitlab.example.com/data/science/churn-model.git');
      expect(within(dialog).getByTestId('derived-repo')).toHaveTextContent('Name: churn-model · Repository author: data/science');
      await user().click(within(dialog).getByRole('radio', { name: 'R' }));
      await user().type(url, '{Enter}');
      expect(await screen.findByText('landed on /projectsv2/:id')).toBeInTheDocument();
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
        project: { name: 'churn-model', description: '', language: 'r', repo_url: 'https://gitlab.example.com/data/science/churn-model.git' },
      });
    });

    it('shows the server refusal in the form (a wrong token, an unreachable remote)', async () => {
      signIn({ has_git_token: true });
      mockFetch(
        on('GET', '/v2/projects', { body: projectsPage([]) }),
        on('POST', '/v2/projects', { status: 400, body: { success: false, code: 'git_auth', message: 'The git server refused your token' } }),
      );
      renderWithProviders(<ProjectsList />);
      await user().click(await screen.findByRole('button', { name: 'Import project' }));
      const dialog = await screen.findByRole('dialog', { name: 'Import project' });
      await user().type(within(dialog).getByRole('textbox', { name: 'Repository URL' }), 'https://github.com/ada/engine{Enter}');
      expect(await within(dialog).findByRole('alert')).toHaveTextContent('The git server refused your token');
    });
  });
});
