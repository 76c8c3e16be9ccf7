import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { StarmapPanel } from '@/features/web3/components/starmap-panel';
import { TransactionGraph } from '@/features/web3/components/transaction-graph';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderInProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';
import { makeCollection, makeStarmap } from '@/testing/web3';

const starmap = makeStarmap(makeCollection());

function renderGraph() {
  renderInProviders(<TransactionGraph nodes={starmap.nodes} links={starmap.links} />);
  const svg = screen.getByRole('img', { name: /^Transaction graph/ });
  return { svg, viewport: screen.getByTestId('graph-viewport') };
}

const scale = () => Number(screen.getByTestId('graph-viewport').getAttribute('data-scale'));

describe('the transaction graph', () => {
  it('draws one circle per wallet, coloured by class, and one line per link of the answer', () => {
    const { svg } = renderGraph();
    expect(svg).toHaveAccessibleName('Transaction graph: 4 wallets, 3 links');
    const circles = svg.querySelectorAll('circle');
    expect(circles).toHaveLength(4);
    expect([...circles].map((c) => c.getAttribute('data-class'))).toEqual(['zero', 'holder', 'former', 'holder']);
    expect(svg.querySelectorAll('line')).toHaveLength(3);
    // The holder of 4 tokens is drawn larger than the one of 1; the busier link wider.
    expect(Number(circles[1].getAttribute('r'))).toBeGreaterThan(Number(circles[3].getAttribute('r')));
    const lines = svg.querySelectorAll('line');
    expect(Number(lines[0].getAttribute('stroke-width'))).toBeGreaterThan(Number(lines[2].getAttribute('stroke-width')));
    expect(circles[1].querySelector('title')).toHaveTextContent('0x1111 4 tokens');
    expect(within(screen.getByRole('list', { name: 'Legend' })).getAllByRole('listitem').map((i) => i.textContent)).toEqual([
      'Zero address (mints and burns)',
      'Holder',
      'Former holder',
      'Size: tokens held · line width: transfers',
    ]);
  });

  it('zooms out no further than 0.3, with the button then off', async () => {
    renderGraph();
    expect(scale()).toBe(1);
    const out = screen.getByRole('button', { name: 'Zoom out' });
    // 1 → 0.67 → 0.44 → 0.3 (0.296 held at the extent's floor).
    await user().click(out);
    await user().click(out);
    expect(scale()).toBeCloseTo(1 / 2.25);
    await user().click(out);
    expect(scale()).toBe(0.3);
    expect(screen.getByLabelText('Zoom level')).toHaveTextContent('30 %');
    expect(out).toBeDisabled();
  });

  it('zooms in no further than 3, and Reset goes back to 1', async () => {
    renderGraph();
    const zoomIn = screen.getByRole('button', { name: 'Zoom in' });
    // 1 → 1.5 → 2.25 → 3 (3.375 held at the extent's ceiling).
    for (let i = 0; i < 3; i += 1) await user().click(zoomIn);
    expect(scale()).toBe(3);
    expect(zoomIn).toBeDisabled();
    expect(screen.getByTestId('graph-viewport')).toHaveAttribute('transform', expect.stringContaining('scale(3)'));
    await user().click(screen.getByRole('button', { name: 'Reset zoom' }));
    expect(scale()).toBe(1);
    expect(zoomIn).toBeEnabled();
  });
});

describe('the Transaction Graph tab', () => {
  it('says when the graph was cut to the busiest links', async () => {
    signIn({}, true);
    mockFetch(on('GET', '/v1/web3/starmap', { body: { ...starmap, truncated: true } }));
    renderInProviders(<StarmapPanel slug="lighthouses" />);
    expect(await screen.findByRole('note')).toHaveTextContent('Only the 2,000 busiest links (and their wallets) are drawn.');
    expect(screen.getByRole('img', { name: /^Transaction graph/ }).querySelectorAll('circle')).toHaveLength(4);
  });

  it('says so when no transfer is stored yet', async () => {
    signIn({}, true);
    const calls = mockFetch(on('GET', '/v1/web3/starmap', { body: makeStarmap(makeCollection({ status: 'running' }), { nodes: [], links: [] }) }));
    renderInProviders(<StarmapPanel slug="lighthouses" />);
    expect(await screen.findByText('No transfers stored for this collection yet.')).toBeInTheDocument();
    expect(screen.queryByRole('img', { name: /^Transaction graph/ })).not.toBeInTheDocument();
    expect(calls.map((c) => c.url)).toEqual(['/v1/web3/starmap?slug=lighthouses']);
  });

  it("says a collection that is not there is not found, in the server's words", async () => {
    signIn({}, true);
    mockFetch(on('GET', '/v1/web3/starmap', { status: 404, body: { success: false, code: 'collection_not_found', message: 'Collection not found.' } }));
    renderInProviders(<StarmapPanel slug="nothing" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Collection not found.');
  });
});
