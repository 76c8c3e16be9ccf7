import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { LegacyProjectDetail } from '@/features/notebooks/components/legacy-project-detail';
import type { PublishDialog } from '@/features/notebooks/components/slots';
import { formatDate } from '@/lib/dates';
import { mockFetch, on } from '@/testing/fetch-mock';
import { JUPYTER_RUNNING, legacyDetail, makeLegacyProject, makeNotebook, sharedLegacyProject } from '@/testing/notebooks';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';
import { expectTooltip } from '@/testing/project-workspace';

const NB1 = makeNotebook({ id: 'n1', name: 'Explore', path: 'Explore.ipynb' });
const NB2 = makeNotebook({ id: 'n2', name: 'Forecast', path: 'Forecast.ipynb' });

function handlers(project = makeLegacyProject({ id: 'p1', name: 'Sales', notebooks: [NB1, NB2] }), notebooks = [NB1, NB2]) {
  return [
    on('GET', '/v1/projects/p1', { body: legacyDetail(project, JUPYTER_RUNNING) }),
    on('GET', '/v1/notebook/p1', { body: { success: true, notebooks } }),
  ];
}

describe('legacy project page (/projects/{id})', () => {
  it('shows the overview (created by, created date, status, tags), the notebooks with their links, and the discussion', async () => {
    signIn();
    mockFetch(...handlers(makeLegacyProject({ id: 'p1', name: 'Sales', description: 'Weekly sales', tags: ['retail', 'weekly'], notebooks: [NB1, NB2] })));
    renderWithProviders(<LegacyProjectDetail id="p1" discussion={<button type="button">Discussion</button>} />);
    expect(await screen.findByRole('heading', { name: 'Sales' })).toBeInTheDocument();
    const overview = screen.getByRole('region', { name: 'Overview' });
    expect(overview).toHaveTextContent('Weekly sales');
    expect(overview).toHaveTextContent('Created byAda Lovelace');
    expect(overview).toHaveTextContent(`Created${formatDate(1763700000)}`);
    expect(within(overview).getByLabelText('JupyterLab status')).toHaveTextContent('running');
    expect(overview).toHaveTextContent('retailweekly');
    const list = await screen.findByRole('table', { name: 'Notebooks' });
    expect(within(list).getByRole('link', { name: 'Explore' })).toHaveAttribute('href', '/notebooks/n1');
    expect(within(list).getByRole('link', { name: 'Forecast' })).toHaveAttribute('href', '/notebooks/n2');
    expect(within(list).getByRole('link', { name: 'Edit Explore' })).toHaveAttribute('href', '/notebooks/n1/edit');
    expect(screen.getByRole('button', { name: 'Discussion' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit' })).toHaveAttribute('href', '/projects/p1/edit');
  });

  it('create file and import file go to /add-notebooks and /import-notebooks with the project', async () => {
    signIn();
    mockFetch(...handlers());
    const { router } = renderWithProviders(<LegacyProjectDetail id="p1" />, {
      url: '/projects/p1',
      path: '/projects/:id',
      routes: [landing('/add-notebooks'), landing('/import-notebooks')],
    });
    await user().click(await screen.findByRole('button', { name: 'Create file' }));
    expect(await screen.findByText('landed on /add-notebooks')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?project=p1');
    await router.navigate('/projects/p1');
    await user().click(await screen.findByRole('button', { name: 'Import file' }));
    expect(await screen.findByText('landed on /import-notebooks')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?project=p1');
  });

  it('highlights the notebook named in navigation state (the import)', async () => {
    signIn();
    mockFetch(...handlers());
    const { router } = renderWithProviders(<LegacyProjectDetail id="p1" />, { url: '/', path: '/projects/:id', routes: [landing('/')] });
    await router.navigate('/projects/p1', { state: { notebookId: 'n2' } });
    const list = await screen.findByRole('table', { name: 'Notebooks' });
    const forecast = within(list).getByRole('link', { name: 'Forecast' }).closest('tr')!;
    expect(forecast).toHaveAttribute('data-highlighted', 'true');
    expect(within(forecast).getByText('New')).toBeInTheDocument();
    expect(within(list).getByRole('link', { name: 'Explore' }).closest('tr')).not.toHaveAttribute('data-highlighted');
  });

  it("deletes a notebook after 'Are you sure you want to delete this Notebook?' with 'Notebook Deleted!'", async () => {
    signIn();
    let gone = false;
    const calls = mockFetch(
      on('GET', '/v1/projects/p1', { body: legacyDetail(makeLegacyProject({ id: 'p1', notebooks: [NB1, NB2] })) }),
      on('GET', '/v1/notebook/p1', () => ({ body: { success: true, notebooks: gone ? [NB2] : [NB1, NB2] } })),
      on('DELETE', '/v1/notebook/n1', () => {
        gone = true;
        return { body: { success: true, message: 'Notebook Deleted!' } };
      }),
    );
    renderWithProviders(<LegacyProjectDetail id="p1" />);
    await user().click(await screen.findByRole('button', { name: 'Delete Explore' }));
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(dialog).toHaveTextContent('Are you sure you want to delete this Notebook?');
    expect(dialog).toHaveTextContent('Explore.ipynb');
    await user().click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Notebook Deleted!')).toBeInTheDocument();
    await vi.waitFor(() => expect(screen.queryByRole('link', { name: 'Explore' })).not.toBeInTheDocument());
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.url)).toEqual(['/v1/notebook/n1']);
  });

  it("below edit access: no notebook edit or delete, and create, import, share and publish say 'You need edit access'", async () => {
    signIn();
    const onShare = vi.fn();
    const publish = vi.fn<PublishDialog>(() => null);
    mockFetch(...handlers(sharedLegacyProject('execute', { id: 'p1', name: 'Sales', notebooks: [NB1] }), [NB1]));
    renderWithProviders(<LegacyProjectDetail id="p1" onShare={onShare} publishDialog={publish} />);
    const list = await screen.findByRole('table', { name: 'Notebooks' });
    expect(within(list).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Edit' })).not.toBeInTheDocument();
    for (const name of ['Create file', 'Import file', 'Share', 'Publish']) {
      const button = screen.getByRole('button', { name });
      expect(button).toHaveAttribute('aria-disabled', 'true');
      await user().click(button);
    }
    await expectTooltip(screen.getByRole('button', { name: 'Publish' }), 'You need edit access');
    expect(onShare).not.toHaveBeenCalled();
    expect(publish).not.toHaveBeenCalled();
  });

  it('publishes through the app layer with the project and its notebooks as files', async () => {
    signIn();
    const publish = vi.fn<PublishDialog>(({ onClose }) => (
      <button type="button" onClick={onClose}>
        close publish
      </button>
    ));
    mockFetch(...handlers());
    renderWithProviders(<LegacyProjectDetail id="p1" publishDialog={publish} />);
    await user().click(await screen.findByRole('button', { name: 'Publish' }));
    expect(publish).toHaveBeenLastCalledWith(expect.objectContaining({ projectId: 'p1', language: 'python', files: ['Explore.ipynb', 'Forecast.ipynb'] }));
    await user().click(screen.getByRole('button', { name: 'close publish' }));
    expect(screen.queryByRole('button', { name: 'close publish' })).not.toBeInTheDocument();
  });

  it('an empty project says so', async () => {
    signIn();
    mockFetch(...handlers(makeLegacyProject({ id: 'p1' }), []));
    renderWithProviders(<LegacyProjectDetail id="p1" />);
    expect(await screen.findByText('No notebooks yet')).toBeInTheDocument();
  });
});
