import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { formatDate } from '@/lib/dates';
import { activeNotebooks, isListed, LegacyProjectsList } from '@/features/notebooks/components/legacy-projects-list';
import type { GitTokenPrompt } from '@/features/notebooks/components/slots';
import { type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { legacyPage, makeLegacyProject, makeNotebook, sharedLegacyProject } from '@/testing/notebooks';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const query = (c: MockCall) => Object.fromEntries(new URL(c.url, 'http://x').searchParams);
/** The row whose name link says `name`. */
function row(name: string): HTMLElement {
  const found = screen.getAllByRole('row').find((r) => within(r).queryByRole('link', { name }));
  if (!found) throw new Error(`no row for ${name}`);
  return found;
}
const LONG = 'A very long description of the notebooks in this project, which goes on well past the cut';

describe('legacy projects list (/projects)', () => {
  it("asks for 'My Projects' page 1 of 10 and shows image, name, description cut to 75, owner, created, active notebooks and updated", async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/projects', {
        body: legacyPage([
          makeLegacyProject({
            id: 'p1',
            name: 'Sales',
            description: LONG,
            notebooks: [makeNotebook(), makeNotebook(), makeNotebook({ status: 'deleted' })],
          }),
          makeLegacyProject({ name: 'Orphan', users: null, language: 'r' }),
          makeLegacyProject({ name: 'Dashboard only', type: 'dashboard' }),
        ]),
      }),
    );
    renderWithProviders(<LegacyProjectsList />);
    const table = await screen.findByRole('table', { name: 'Notebook projects' });
    expect(query(calls[0])).toEqual({ page: '1', pageSize: '10', sortOperator: 'desc', orderBy: 'updated_at' });
    const sales = row('Sales');
    expect(within(sales).getByRole('img', { name: 'Python' })).toBeInTheDocument();
    expect(within(sales).getByRole('link', { name: 'Sales' })).toHaveAttribute('href', '/projects/p1');
    expect(within(sales).getByText(`${LONG.slice(0, 75)}...`)).toBeInTheDocument();
    expect(sales).toHaveTextContent('Ada Lovelace');
    expect(sales).toHaveTextContent(formatDate(1763700000));
    expect(within(sales).getByLabelText('2 active notebooks')).toHaveTextContent('2');
    expect(row('Orphan')).toHaveTextContent('Unknown');
    expect(within(row('Orphan')).getByRole('img', { name: 'R' })).toBeInTheDocument();
    // Only types including 'report' are listed (spec 000 §2).
    expect(within(table).queryByText('Dashboard only')).not.toBeInTheDocument();
  });

  it('counts active notebooks and keeps report types', () => {
    expect(activeNotebooks({ notebooks: [makeNotebook(), makeNotebook({ status: 'archived' })] })).toBe(1);
    expect(isListed({ type: 'report' })).toBe(true);
    expect(isListed({ type: 'notebook-report' })).toBe(true);
    expect(isListed({ type: 'app' })).toBe(false);
  });

  it('shows the row menu only to the owner or with edit access', async () => {
    signIn();
    mockFetch(
      on('GET', '/v1/projects/share/list', {
        body: legacyPage([
          sharedLegacyProject('edit', { name: 'Editable' }),
          sharedLegacyProject('execute', { name: 'Runnable' }),
          sharedLegacyProject('view', { name: 'Readable' }),
          sharedLegacyProject('view', { name: 'Mine anyway', is_owner: true }),
        ]),
      }),
    );
    renderWithProviders(<LegacyProjectsList />, { url: '/projects?filter=shared', path: '/projects' });
    await screen.findByRole('table', { name: 'Notebook projects' });
    expect(within(row('Editable')).getByRole('button', { name: 'Actions for Editable' })).toBeInTheDocument();
    expect(within(row('Mine anyway')).getByRole('button', { name: 'Actions for Mine anyway' })).toBeInTheDocument();
    expect(within(row('Runnable')).queryByRole('button')).not.toBeInTheDocument();
    expect(within(row('Readable')).queryByRole('button')).not.toBeInTheDocument();
    expect(row('Editable')).toHaveTextContent('Grace Hopper');
  });

  it("switches between 'My Projects' and 'Shared With Me' (kept in the address) with an empty state each", async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/projects', { body: legacyPage([makeLegacyProject({ name: 'Mine' })]) }),
      on('GET', '/v1/projects/share/list', { body: legacyPage([]) }),
    );
    const { router } = renderWithProviders(<LegacyProjectsList />, { url: '/projects', path: '/projects' });
    await screen.findByRole('link', { name: 'Mine' });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['My Projects', 'Shared With Me']);
    await user().click(screen.getByRole('tab', { name: 'Shared With Me' }));
    expect(await screen.findByText('Nothing shared with you yet')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?filter=shared');
    expect(query(calls.find((c) => c.url.startsWith('/v1/projects/share/list'))!)).toEqual({ page: '1', pageSize: '10' });
    expect(screen.queryByRole('button', { name: 'Create a project' })).not.toBeInTheDocument();
  });

  it('pages with Prev, the page number and Next', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/projects', (c) => {
        const p = Number(query(c).page);
        return { body: legacyPage([makeLegacyProject({ name: `On page ${p}` })], { page: p, total: 12, total_pages: 2 }) };
      }),
    );
    renderWithProviders(<LegacyProjectsList />);
    await screen.findByRole('link', { name: 'On page 1' });
    const pager = screen.getByRole('navigation', { name: 'Project pages' });
    expect(within(pager).getByText('Page 1')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Prev' })).toBeDisabled();
    await user().click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByRole('link', { name: 'On page 2' });
    expect(within(pager).getByText('Page 2')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();
    expect(calls.map((c) => query(c).page)).toEqual(['1', '2']);
  });

  it("deletes after 'Are you sure you want to delete this Project?' with 'Project Deleted!'", async () => {
    signIn();
    let gone = false;
    const calls = mockFetch(
      on('GET', '/v1/projects', () => ({ body: legacyPage(gone ? [] : [makeLegacyProject({ id: 'p7', name: 'Old' })]) })),
      on('DELETE', '/v1/projects/p7', () => {
        gone = true;
        return { body: { success: true, message: 'Project Deleted!' } };
      }),
    );
    renderWithProviders(<LegacyProjectsList />);
    await user().click(await screen.findByRole('button', { name: 'Actions for Old' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Delete', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(dialog).toHaveTextContent('Are you sure you want to delete this Project?');
    await user().click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Project Deleted!')).toBeInTheDocument();
    expect(await screen.findByText('You have no notebook projects yet')).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'DELETE')).toHaveLength(1);
  });

  it('edits on /projects/{id}/edit and shares through the app layer', async () => {
    signIn();
    const onShare = vi.fn();
    mockFetch(on('GET', '/v1/projects', { body: legacyPage([makeLegacyProject({ id: 'p7', name: 'Old' })]) }));
    const { router } = renderWithProviders(<LegacyProjectsList onShare={onShare} />, { url: '/projects', path: '/projects', routes: [landing('/projects/:id/edit')] });
    await user().click(await screen.findByRole('button', { name: 'Actions for Old' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Share', hidden: true }));
    expect(onShare).toHaveBeenCalledWith(expect.objectContaining({ id: 'p7' }));
    await user().click(screen.getByRole('button', { name: 'Actions for Old' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Edit', hidden: true }));
    expect(await screen.findByText('landed on /projects/:id/edit')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/projects/p7/edit');
  });

  it('create project goes to /projects/new with a saved git token', async () => {
    signIn({ has_git_token: true });
    mockFetch(on('GET', '/v1/projects', { body: legacyPage([]) }));
    const prompt = vi.fn<GitTokenPrompt>(() => null);
    const { router } = renderWithProviders(<LegacyProjectsList gitTokenPrompt={prompt} />, { url: '/projects', path: '/projects', routes: [landing('/projects/new')] });
    await user().click(await screen.findByRole('button', { name: 'Create project' }));
    expect(await screen.findByText('landed on /projects/new')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/projects/new');
  });

  it('without a git token, create project asks for one first, then goes to /projects/new', async () => {
    signIn({ has_git_token: false });
    mockFetch(on('GET', '/v1/projects', { body: legacyPage([]) }));
    const prompt: GitTokenPrompt = ({ opened, onSaved }) =>
      opened ? (
        <button type="button" onClick={onSaved}>
          save the git token
        </button>
      ) : null;
    renderWithProviders(<LegacyProjectsList gitTokenPrompt={prompt} />, { url: '/projects', path: '/projects', routes: [landing('/projects/new')] });
    await user().click(await screen.findByRole('button', { name: 'Create project' }));
    expect(screen.queryByText('landed on /projects/new')).not.toBeInTheDocument();
    await user().click(await screen.findByRole('button', { name: 'save the git token' }));
    expect(await screen.findByText('landed on /projects/new')).toBeInTheDocument();
  });

  it('creates a project from a template (POST /v1/projects/ludisproject) and opens it', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/projects', { body: legacyPage([]) }),
      on('GET', '/v1/projects/ludisproject', {
        body: {
          success: true,
          templates: [
            { id: 'retail', name: 'Retail analysis', description: 'Sales by store', language: 'python', notebooks: ['Explore.ipynb'], datasets: ['Retail sales (sample)'] },
            { id: 'weather', name: 'City weather', description: '', language: 'r', notebooks: [], datasets: [] },
          ],
        },
      }),
      on('POST', '/v1/projects/ludisproject', { status: 201, body: { success: true, message: 'Project Created Successfully', project: makeLegacyProject({ id: 'p9' }) } }),
    );
    const { router } = renderWithProviders(<LegacyProjectsList />, { url: '/projects', path: '/projects', routes: [landing('/projects/:id')] });
    await user().click(await screen.findByRole('button', { name: 'Create from template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create from template' });
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please choose a template')).toBeInTheDocument();
    expect(within(dialog).getByText(/Datasets: Retail sales \(sample\)/)).toBeInTheDocument();
    await user().click(within(dialog).getByRole('radio', { name: 'Retail analysis' }));
    await user().type(within(dialog).getByRole('textbox', { name: /Project name/ }), 'bad_name');
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Please enter valid project name. No special character allowed.')).toBeInTheDocument();
    await user().clear(within(dialog).getByRole('textbox', { name: /Project name/ }));
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('landed on /projects/:id')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/projects/p9');
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ template: 'retail' });
    expect(screen.getByText('Project Created Successfully')).toBeInTheDocument();
  });
});
