import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { OverlapPanel } from '@/features/web3/components/overlap-panel';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderInProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { makeBubble, makeBubblewrap, makeCollection } from '@/testing/web3';

const collection = makeCollection({ name: 'Ludis Lighthouses', gcp_slug: 'lighthouses' });
const base = makeBubble({ contract_address: '0xbase', collection_name: 'Ludis Lighthouses', current_wallets: 13, tokens_held: 20 });
const harbour = makeBubble({ contract_address: '0xharbour', collection_name: 'Harbour Passes', overlap_wallet_perc: 23.08, current_wallets: 3, tokens_held: 5, group: 'overlap' });
const drop = makeBubble({ contract_address: '0xdrop', collection_name: 'Free Drop', overlap_wallet_perc: 15.38, current_wallets: 2, tokens_held: 2, group: 'overlap', spam: true });

function renderPanel(bubbles = [base, harbour, drop]) {
  signIn({}, true);
  const calls = mockFetch(on('GET', '/v1/web3/bubblewrap', { body: makeBubblewrap(collection, bubbles) }));
  renderInProviders(<OverlapPanel slug="lighthouses" />);
  return calls;
}

describe('the Overlapping Collections Graph tab', () => {
  it('draws one bubble per collection, the base first and highlighted, a spam one dashed and marked', async () => {
    const calls = renderPanel();
    const svg = await screen.findByRole('img', { name: 'Overlapping collections: 3 bubbles' });
    const bubbles = within(svg).getAllByTestId('bubble');
    expect(bubbles.map((b) => b.getAttribute('data-group'))).toEqual(['base', 'overlap', 'overlap']);
    expect(svg.querySelectorAll('circle')).toHaveLength(3);
    const [baseCircle, harbourCircle, dropCircle] = bubbles.map((b) => b.querySelector('circle')!);
    expect(Number(baseCircle.getAttribute('stroke-width'))).toBeGreaterThan(Number(harbourCircle.getAttribute('stroke-width')));
    expect(Number(baseCircle.getAttribute('r'))).toBeGreaterThan(Number(harbourCircle.getAttribute('r')));
    expect(dropCircle).toHaveAttribute('stroke-dasharray');
    expect(harbourCircle).not.toHaveAttribute('stroke-dasharray');
    expect(bubbles[0]).toHaveTextContent('Ludis Lighthouses100 %');
    expect(harbourCircle.querySelector('title')).toHaveTextContent("Harbour Passes (23.08 % of this collection's holders) 3 wallets, 5 tokens held");
    expect(dropCircle.querySelector('title')).toHaveTextContent('Looks like spam');
    expect(screen.queryByText("No collection shares 10 % or more of this collection's holders.")).not.toBeInTheDocument();
    expect(calls.map((c) => c.url)).toEqual(['/v1/web3/bubblewrap?slug=lighthouses']);
  });

  it('lists the same numbers in a table, in the same order', async () => {
    renderPanel();
    const table = await screen.findByRole('table', { name: 'Overlapping collections' });
    const rows = within(table).getAllByRole('row').slice(1).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent));
    expect(rows).toEqual([
      ['0xbase', 'Ludis Lighthousesthis collection', '100 %', '13', '20', 'No'],
      ['0xharbour', 'Harbour Passes', '23.08 %', '3', '5', 'No'],
      ['0xdrop', 'Free Drop', '15.38 %', '2', '2', 'spam'],
    ]);
  });

  it('says so when no other collection reaches 10 %, and still draws the base', async () => {
    renderPanel([base]);
    expect(await screen.findByRole('note')).toHaveTextContent("No collection shares 10 % or more of this collection's holders.");
    expect(within(screen.getByRole('img', { name: 'Overlapping collections: 1 bubbles' })).getAllByTestId('bubble')).toHaveLength(1);
  });
});
