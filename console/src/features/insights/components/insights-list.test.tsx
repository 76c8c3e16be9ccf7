import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { INSIGHTS_VIEW_STORAGE_KEY, SEARCH_DEBOUNCE_MS } from '@/config/constants';
import { emptyMessage, InsightsList } from '@/features/insights/components/insights-list';
import { makeInsight } from '@/testing/insights';
import { type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { inputTimes, user } from '@/testing/user';

function page(apps: ReturnType<typeof makeInsight>[], extra: { page?: number; total?: number; totalPages?: number } = {}) {
  return { success: true, applications: apps, page: extra.page ?? 1, pageSize: 12, total: extra.total ?? apps.length, totalPages: extra.totalPages ?? 1 };
}

const listCalls = (calls: MockCall[]) => calls.filter((c) => c.url.startsWith('/v1/applications/insights'));
const query = (c: MockCall) => Object.fromEntries(new URL(c.url, 'http://x').searchParams);

describe('insights list', () => {
  it('asks for page 1 of 12, filter all, newest first, on the Dashboard screen', async () => {
    signIn();
    const calls = mockFetch(on('GET', '/v1/applications/insights', { body: page([makeInsight({ name: 'Sales' })]) }));
    renderWithProviders(<InsightsList />);
    expect(await screen.findByRole('article', { name: 'Sales' })).toBeInTheDocument();
    expect(query(listCalls(calls)[0])).toEqual({ page: '1', pageSize: '12', filter: 'all', sortBy: 'created_at', sortOperator: 'DESC', screen: 'Dashboard' });
  });

  it('switches screens through the screen parameter', async () => {
    signIn();
    const calls = mockFetch(on('GET', '/v1/applications/insights', (c) => ({ body: page([makeInsight({ name: `On ${query(c).screen}` })]) })));
    const { router } = renderWithProviders(<InsightsList />, { url: '/insights?screen=Applications', path: '/insights' });
    expect(await screen.findByRole('article', { name: 'On Applications' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Applications' })).toHaveAttribute('aria-selected', 'true');
    await user().click(screen.getByRole('tab', { name: 'Reports' }));
    expect(await screen.findByRole('article', { name: 'On Reports' })).toBeInTheDocument();
    expect(router.state.location.search).toBe('?screen=Reports');
    expect(query(listCalls(calls).at(-1)!).screen).toBe('Reports');
  });

  it('filters and sorts', async () => {
    signIn();
    const calls = mockFetch(on('GET', '/v1/applications/insights', { body: page([makeInsight()]) }));
    renderWithProviders(<InsightsList />);
    await screen.findAllByRole('article');
    const filter = screen.getByRole('combobox', { name: 'Filter' });
    expect(within(filter).getAllByRole('option').map((o) => o.textContent)).toEqual(['All Apps', 'Starred', 'Created by me', 'Shared with me', 'Template']);
    await user().selectOptions(filter, 'Shared with me');
    await vi.waitFor(() => expect(query(listCalls(calls).at(-1)!).filter).toBe('shared'));
    await user().selectOptions(screen.getByRole('combobox', { name: 'Sort' }), 'Name (A to Z)');
    await vi.waitFor(() => expect(query(listCalls(calls).at(-1)!)).toMatchObject({ filter: 'shared', sortBy: 'name', sortOperator: 'ASC' }));
  });

  it('searches once, 500 ms after the typing stops', async () => {
    signIn();
    const calls = mockFetch(on('GET', '/v1/applications/insights', (c) => ({ body: page(query(c).search ? [] : [makeInsight()]) })));
    renderWithProviders(<InsightsList />);
    await screen.findAllByRole('article');
    const box = screen.getByRole('textbox', { name: 'Search insights' });
    const typed = inputTimes(box);
    // The three keystrokes arrive in one go (no pause between them), so no timer can run in between.
    await user().type(box, 'sal');
    expect(await screen.findByText('No insights match “sal”')).toBeInTheDocument();
    const searches = listCalls(calls).filter((c) => query(c).search);
    expect(searches).toHaveLength(1);
    expect(query(searches[0]).search).toBe('sal');
    expect(typed).toHaveLength(3);
    // Not before 500 ms after the last keystroke (timers count whole milliseconds, hence the 1).
    expect(searches[0].at - typed[2]).toBeGreaterThanOrEqual(SEARCH_DEBOUNCE_MS - 1);
  });

  it('remembers the table view in local storage; rows link to /app/{id}', async () => {
    signIn();
    mockFetch(on('GET', '/v1/applications/insights', { body: page([makeInsight({ id: 'z1', name: 'Sales' })]) }));
    const first = renderWithProviders(<InsightsList />);
    await screen.findByRole('article', { name: 'Sales' });
    await user().click(screen.getByText('Table'));
    expect(window.localStorage.getItem(INSIGHTS_VIEW_STORAGE_KEY)).toBe('table');
    const table = await screen.findByRole('table', { name: 'Insights' });
    expect(within(table).getByRole('link', { name: 'Sales' })).toHaveAttribute('href', '/app/z1');
    first.unmount();

    renderWithProviders(<InsightsList />);
    expect(await screen.findByRole('table', { name: 'Insights' })).toBeInTheDocument();
    expect(screen.queryByRole('article')).not.toBeInTheDocument();
    await user().click(screen.getByText('Cards'));
    expect(window.localStorage.getItem(INSIGHTS_VIEW_STORAGE_KEY)).toBe('card');
  });

  it("a superadmin's All Apps says each insight's organization, on the card and in the table; others see none", async () => {
    signIn({ role: 'superadmin' });
    const apps = [
      makeInsight({ name: 'Sales', organization: { id: '7', name: 'Acme' } }),
      makeInsight({ name: 'Churn', organization: { id: '8', name: 'Globex' } }),
    ];
    mockFetch(on('GET', '/v1/applications/insights', { body: page(apps) }));
    const first = renderWithProviders(<InsightsList />);
    expect(within(await screen.findByRole('article', { name: 'Sales' })).getByText('Acme')).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: 'Churn' })).getByText('Globex')).toBeInTheDocument();
    await user().click(screen.getByText('Table'));
    const table = await screen.findByRole('table', { name: 'Insights' });
    expect(within(table).getByRole('columnheader', { name: 'Organization' })).toBeInTheDocument();
    expect(within(table).getByRole('row', { name: /Churn/ })).toHaveTextContent('Globex');
    first.unmount();
    window.localStorage.removeItem(INSIGHTS_VIEW_STORAGE_KEY);

    signIn({ role: 'developer' });
    renderWithProviders(<InsightsList />);
    const sales = await screen.findByRole('article', { name: 'Sales' });
    expect(within(sales).queryByText('Acme')).not.toBeInTheDocument();
  });

  it('loads more pages while pages remain', async () => {
    signIn();
    const apps = (n: number, count: number) => Array.from({ length: count }, (_, i) => makeInsight({ id: `p${n}-${i}`, name: `P${n} ${i}` }));
    const calls = mockFetch(
      on('GET', '/v1/applications/insights', (c) => {
        const p = Number(query(c).page);
        return { body: page(p === 1 ? apps(1, 12) : apps(2, 3), { page: p, total: 15, totalPages: 2 }) };
      }),
    );
    renderWithProviders(<InsightsList />);
    expect(await screen.findAllByRole('article')).toHaveLength(12);
    await user().click(screen.getByRole('button', { name: 'Load more' }));
    await vi.waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(15));
    expect(listCalls(calls).map((c) => query(c).page)).toEqual(['1', '2']);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it("says 'Nothing shared with you yet' for an empty Shared with me", async () => {
    signIn();
    mockFetch(on('GET', '/v1/applications/insights', { body: page([]) }));
    renderWithProviders(<InsightsList />);
    expect(await screen.findByText('No insights yet')).toBeInTheDocument();
    await user().selectOptions(screen.getByRole('combobox', { name: 'Filter' }), 'Shared with me');
    expect(await screen.findByText('Nothing shared with you yet')).toBeInTheDocument();
    await user().selectOptions(screen.getByRole('combobox', { name: 'Filter' }), 'Starred');
    expect(await screen.findByText('No starred insights')).toBeInTheDocument();
  });

  it('has an empty state per filter and screen', () => {
    expect(emptyMessage('all', 'Reports', '').title).toBe('No reports yet');
    expect(emptyMessage('owned', 'Applications', '').title).toBe('You have not created any applications yet');
    expect(emptyMessage('shared', 'Dashboard', '').title).toBe('Nothing shared with you yet');
    expect(emptyMessage('template', 'Dashboard', '').title).toBe('No template insights');
    expect(emptyMessage('shared', 'Dashboard', 'q').title).toBe('No insights match “q”');
  });

  it('shows skeletons while loading and the error in place', async () => {
    signIn();
    let release: () => void = () => undefined;
    const gate = new Promise<void>((r) => (release = r));
    let fail = true;
    mockFetch(on('GET', '/v1/applications/insights', () => (fail ? { status: 500, body: { success: false, message: 'Database down' } } : { body: page([makeInsight({ name: 'Back' })]) })));
    const original = globalThis.fetch;
    vi.stubGlobal('fetch', async (...args: Parameters<typeof fetch>) => {
      await gate;
      return original(...args);
    });
    renderWithProviders(<InsightsList />);
    expect(screen.getByRole('status', { name: 'Loading insights' })).toBeInTheDocument();
    release();
    expect(await screen.findByText('Database down')).toBeInTheDocument();
    fail = false;
    await user().click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Back' })).toBeInTheDocument();
  });
});
