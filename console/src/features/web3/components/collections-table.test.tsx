import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { collectionsRefetchInterval } from '@/features/web3/api/get-collections';
import { CollectionsTable } from '@/features/web3/components/collections-table';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';
import { collectionsPage, makeCollection } from '@/testing/web3';

function renderTable() {
  signIn({ role: 'superadmin' }, true);
  return renderWithProviders(<CollectionsTable />, { url: '/collections' });
}

describe('the collections list', () => {
  it('shows each column, the symbol cut to 6 characters with the whole in a tooltip', async () => {
    mockFetch(
      on('GET', '/v1/web3/collections', {
        body: collectionsPage([
          makeCollection({ name: 'Ludis Lighthouses', symbol: 'LIGHTHOUSE', gcp_slug: 'lighthouses', contract_address: '0xabc', chain: 'POLYGON', contract_type: 'ERC1155', transfers: 1234, holders: 56 }),
          makeCollection({ name: 'Short', symbol: 'LLH' }),
        ]),
      }),
    );
    renderTable();
    const table = await screen.findByRole('table', { name: 'Collections' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Name', 'Status', 'Symbol', 'Contract address', 'Type', 'Chain', 'Slug', 'Created', 'Transfers', 'Holders',
    ]);
    const row = within(table).getAllByRole('row')[1];
    expect(within(row).getAllByRole('cell').map((c) => c.textContent)).toEqual([
      'Ludis Lighthouses', '', 'LIGHTH...', '0xabc', 'ERC1155', 'POLYGON', 'lighthouses', '11/20/26 10:00 AM', '1,234', '56',
    ]);
    expect(within(row).getByRole('link', { name: 'Graphs of lighthouses' })).toHaveAttribute('href', '/crypto?slug=lighthouses');
    await user().hover(within(row).getByLabelText('Symbol LIGHTHOUSE'));
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent(/^LIGHTHOUSE$/);
    // A symbol of 6 characters or fewer is shown whole, without a tooltip.
    expect(within(table).getByText('LLH')).not.toHaveAttribute('aria-label');
  });

  it('shortens a contract address to its ends, names it whole and copies it whole', async () => {
    const address = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
    mockFetch(on('GET', '/v1/web3/collections', { body: collectionsPage([makeCollection({ contract_address: address })]) }));
    renderTable();
    const table = await screen.findByRole('table', { name: 'Collections' });
    const shown = within(table).getByLabelText(`Contract address ${address}`);
    expect(shown).toHaveTextContent(/^0x5fbd…0aa3$/);
    const u = user();
    await u.click(within(table).getByRole('button', { name: `Copy ${address}` }));
    expect(await navigator.clipboard.readText()).toBe(address);
  });

  it('shows the status as an icon: in progress with the block reached, done, or failed with the reason', async () => {
    mockFetch(
      on('GET', '/v1/web3/collections', {
        body: collectionsPage([
          makeCollection({ status: 'running', indexed_block: 50, target_block: 120 }),
          makeCollection({ status: 'success' }),
          makeCollection({ status: 'failed', error: 'The ETHEREUM chain cannot be reached: timeout' }),
        ]),
      }),
    );
    renderTable();
    const running = await screen.findByRole('img', { name: 'Indexing: block 50 of 120' });
    expect(running).toHaveAttribute('data-status', 'running');
    expect(screen.getByRole('img', { name: 'Indexed' })).toHaveAttribute('data-status', 'success');
    expect(screen.getByRole('img', { name: 'Failed: The ETHEREUM chain cannot be reached: timeout' })).toHaveAttribute('data-status', 'failed');
    await user().hover(running);
    expect(await screen.findByRole('tooltip', { hidden: true })).toHaveTextContent('Indexing: block 50 of 120');
  });

  it('pages by 10 and asks for the page chosen', async () => {
    const calls = mockFetch(
      on('GET', '/v1/web3/collections', (call) => {
        const page = Number(new URL(call.url, 'http://x').searchParams.get('page'));
        return { body: collectionsPage([makeCollection({ name: `On page ${page}` })], 23) };
      }),
    );
    renderTable();
    expect(await screen.findByText('On page 1')).toBeInTheDocument();
    const pager = screen.getByRole('navigation', { name: 'Collection pages' });
    expect(within(pager).getByRole('button', { name: '3' })).toBeInTheDocument();
    expect(within(pager).queryByRole('button', { name: '4' })).not.toBeInTheDocument();
    await user().click(within(pager).getByRole('button', { name: '2' }));
    expect(await screen.findByText('On page 2')).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toEqual(['/v1/web3/collections?page=1&pageSize=10', '/v1/web3/collections?page=2&pageSize=10']);
  });

  it("says so when there is none, and offers 'Add Collection'", async () => {
    mockFetch(on('GET', '/v1/web3/collections', { body: collectionsPage([]) }));
    renderTable();
    expect(await screen.findByText('No collections yet')).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Collection pages' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Add Collection' })).toHaveAttribute('href', '/collections/new');
  });

  it('explains a failed load in place', async () => {
    mockFetch(on('GET', '/v1/web3/collections', { status: 500, body: { success: false, code: 'internal', message: 'Seems like something went wrong!' } }));
    renderTable();
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Seems like something went wrong!'));
  });

  it('is asked again every 2 s while a collection of the page is indexing, and not otherwise', () => {
    expect(collectionsRefetchInterval(collectionsPage([makeCollection(), makeCollection({ status: 'running' })]))).toBe(2000);
    expect(collectionsRefetchInterval(collectionsPage([makeCollection(), makeCollection({ status: 'failed' })]))).toBe(false);
    expect(collectionsRefetchInterval(undefined)).toBe(false);
  });
});
