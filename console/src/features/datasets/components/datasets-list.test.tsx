import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { DatasetsList, emptyDatasetsMessage } from '@/features/datasets/components/datasets-list';
import type { DatasetView } from '@/lib/api/types';
import { makeDataset, sampleDataset, sharedDataset } from '@/testing/datasets';
import { type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { inputTimes, user } from '@/testing/user';

function page(datasets: DatasetView[], extra: { page?: number; total?: number; total_pages?: number } = {}) {
  return { success: true, datasets, page: extra.page ?? 1, page_size: 10, total: extra.total ?? datasets.length, total_pages: extra.total_pages ?? 1 };
}

const listCalls = (calls: MockCall[]) => calls.filter((c) => c.url.startsWith('/v1/datasets/listdatasets'));
const query = (c: MockCall) => Object.fromEntries(new URL(c.url, 'http://x').searchParams);
const row = (name: string) => screen.getByRole('row', { name: new RegExp(`^${name}\\b`) });

describe('datasets list', () => {
  it('asks for page 1 of 10 with filter all and shows owner, access, files and size per row', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/datasets/listdatasets', {
        body: page([
          makeDataset({ id: 'd1', name: 'Sales', object_count: 3, bytes: 1_500_000 }),
          sharedDataset('edit', { name: 'Budget' }),
          sharedDataset('view', { name: 'Census' }),
          sampleDataset({ name: 'Iris' }),
        ]),
      }),
    );
    renderWithProviders(<DatasetsList />);
    const table = await screen.findByRole('table', { name: 'Datasets' });
    expect(query(listCalls(calls)[0])).toEqual({ filter: 'all', page: '1', pageSize: '10' });
    const sales = within(table).getByRole('row', { name: /^Sales/ });
    expect(within(sales).getByRole('link', { name: 'Sales' })).toHaveAttribute('href', '/datasets/d1');
    expect(sales).toHaveTextContent('You');
    expect(sales).toHaveTextContent('owner');
    expect(sales).toHaveTextContent('1.50 MB');
    expect(row('Budget')).toHaveTextContent('Grace Hopper');
    expect(row('Budget')).toHaveTextContent('edit');
    expect(row('Census')).toHaveTextContent('view');
    expect(row('Iris')).toHaveTextContent('Sample');
    // Only edit access shows the menu (spec 001 §6).
    expect(within(sales).getByRole('button', { name: 'Actions for Sales' })).toBeInTheDocument();
    expect(within(row('Budget')).getByRole('button', { name: 'Actions for Budget' })).toBeInTheDocument();
    expect(within(row('Census')).queryByRole('button')).not.toBeInTheDocument();
    expect(within(row('Iris')).queryByRole('button')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Import dataset' })).toHaveAttribute('href', '/datasets/new');
  });

  it('switches filters with the tabs (kept in the address) and says what an empty filter means', async () => {
    signIn();
    const calls = mockFetch(on('GET', '/v1/datasets/listdatasets', (c) => ({ body: page(query(c).filter === 'all' ? [makeDataset({ name: 'Mine' })] : []) })));
    const { router } = renderWithProviders(<DatasetsList />, { url: '/datasets', path: '/datasets' });
    await screen.findByRole('row', { name: /^Mine/ });
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['All', 'Created by me', 'Shared with me', 'Samples']);

    await user().click(screen.getByRole('tab', { name: 'Shared with me' }));
    expect(await screen.findByText('Nothing shared with you yet')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?filter=shared');
    expect(query(listCalls(calls).at(-1)!).filter).toBe('shared');

    await user().click(screen.getByRole('tab', { name: 'Samples' }));
    expect(await screen.findByText('No sample datasets')).toBeInTheDocument();
    await user().click(screen.getByRole('tab', { name: 'Created by me' }));
    expect(await screen.findByText('You have not created any datasets yet')).toBeInTheDocument();
    expect(query(listCalls(calls).at(-1)!).filter).toBe('owned');
  });

  it('starts on the filter the address names', async () => {
    signIn();
    const calls = mockFetch(on('GET', '/v1/datasets/listdatasets', { body: page([]) }));
    renderWithProviders(<DatasetsList />, { url: '/datasets?filter=sample', path: '/datasets' });
    expect(await screen.findByText('No sample datasets')).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Samples' })).toHaveAttribute('aria-selected', 'true');
    expect(query(listCalls(calls)[0]).filter).toBe('sample');
  });

  it('has an empty state per filter and for a search', () => {
    expect(emptyDatasetsMessage('all', '').title).toBe('No datasets yet');
    expect(emptyDatasetsMessage('owned', '').title).toBe('You have not created any datasets yet');
    expect(emptyDatasetsMessage('shared', '').title).toBe('Nothing shared with you yet');
    expect(emptyDatasetsMessage('sample', '').title).toBe('No sample datasets');
    expect(emptyDatasetsMessage('shared', 'q').title).toBe('No datasets match “q”');
  });

  it('pages with Prev, the page number and Next', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/datasets/listdatasets', (c) => {
        const p = Number(query(c).page);
        return { body: page([makeDataset({ name: `On page ${p}` })], { page: p, total: 21, total_pages: 3 }) };
      }),
    );
    renderWithProviders(<DatasetsList />);
    await screen.findByRole('row', { name: /^On page 1/ });
    const pager = screen.getByRole('navigation', { name: 'Dataset pages' });
    expect(within(pager).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(within(pager).getByRole('button', { name: 'Prev' })).toBeDisabled();
    await user().click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByRole('row', { name: /^On page 2/ });
    expect(within(pager).getByText('Page 2 of 3')).toBeInTheDocument();
    await user().click(within(pager).getByRole('button', { name: 'Next' }));
    await screen.findByRole('row', { name: /^On page 3/ });
    expect(within(pager).getByRole('button', { name: 'Next' })).toBeDisabled();
    await user().click(within(pager).getByRole('button', { name: 'Prev' }));
    await screen.findByRole('row', { name: /^On page 2/ });
    expect(listCalls(calls).map((c) => query(c).page)).toEqual(['1', '2', '3']);
    // Another filter starts on page 1 again.
    await user().click(screen.getByRole('tab', { name: 'Created by me' }));
    await vi.waitFor(() => expect(query(listCalls(calls).at(-1)!)).toMatchObject({ filter: 'owned', page: '1' }));
  });

  it('searches once, 500 ms after the typing stops, from page 1', async () => {
    signIn();
    const calls = mockFetch(on('GET', '/v1/datasets/listdatasets', (c) => ({ body: page(query(c).search ? [] : [makeDataset()], { total_pages: 2 }) })));
    renderWithProviders(<DatasetsList />);
    await screen.findByRole('table', { name: 'Datasets' });
    await user().click(screen.getByRole('button', { name: 'Next' }));
    await vi.waitFor(() => expect(query(listCalls(calls).at(-1)!).page).toBe('2'));
    const box = screen.getByRole('textbox', { name: 'Search datasets' });
    const typed = inputTimes(box);
    // The three keystrokes arrive in one go (no pause between them), so no timer can run in between.
    await user().type(box, 'sal');
    expect(await screen.findByText('No datasets match “sal”')).toBeInTheDocument();
    const searches = listCalls(calls).filter((c) => query(c).search);
    expect(searches).toHaveLength(1);
    expect(query(searches[0])).toMatchObject({ search: 'sal', page: '1' });
    expect(typed).toHaveLength(3);
    // Not before 500 ms after the last keystroke (timers count whole milliseconds, hence the 1).
    expect(searches[0].at - typed[2]).toBeGreaterThanOrEqual(SEARCH_DEBOUNCE_MS - 1);
  });

  it("deletes from the row menu after 'Are you sure you want to delete this item?' with 'Dataset Deleted!'", async () => {
    signIn();
    let gone = false;
    const calls = mockFetch(
      on('GET', '/v1/datasets/listdatasets', () => ({ body: page(gone ? [] : [makeDataset({ id: 'd7', name: 'Old' })]) })),
      on('DELETE', '/v1/datasets/d7', () => {
        gone = true;
        return { body: { success: true, message: 'Dataset Deleted!' } };
      }),
    );
    renderWithProviders(<DatasetsList />);
    await user().click(await screen.findByRole('button', { name: 'Actions for Old' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Delete', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(within(dialog).getByText('Are you sure you want to delete this item?')).toBeInTheDocument();
    await user().click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Dataset Deleted!')).toBeInTheDocument();
    expect(await screen.findByText('No datasets yet')).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'DELETE' && c.url === '/v1/datasets/d7')).toBe(true);
  });

  it('opens the edit page and the share dialog from the menu', async () => {
    signIn();
    const onShare = vi.fn();
    mockFetch(on('GET', '/v1/datasets/listdatasets', { body: page([makeDataset({ id: 'd3', name: 'Sales' })]) }));
    const { router } = renderWithProviders(<DatasetsList onShare={onShare} />, { url: '/datasets', path: '/datasets', routes: [landing('/datasets/edit/:id')] });
    await user().click(await screen.findByRole('button', { name: 'Actions for Sales' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Share', hidden: true }));
    expect(onShare).toHaveBeenCalledWith(expect.objectContaining({ id: 'd3' }));
    await user().click(screen.getByRole('button', { name: 'Actions for Sales' }));
    await user().click(await screen.findByRole('menuitem', { name: 'Edit', hidden: true }));
    await vi.waitFor(() => expect(router.state.location.pathname).toBe('/datasets/edit/d3'));
  });

  it('explains a failed load in place', async () => {
    signIn();
    mockFetch(on('GET', '/v1/datasets/listdatasets', { status: 403, body: { success: false, code: 'feature_disabled', message: 'The Datasets feature is not enabled for your role' } }));
    renderWithProviders(<DatasetsList />);
    expect(await screen.findByText('The Datasets feature is not enabled for your role')).toBeInTheDocument();
  });
});
