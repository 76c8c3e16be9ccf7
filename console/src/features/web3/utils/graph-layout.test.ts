import { describe, expect, it } from 'vitest';

import type { GraphLink, GraphNode } from '@/features/web3/api/types';
import { layoutStarmap, linkWidth, nodeRadius } from '@/features/web3/utils/graph-layout';

const zero = '0x0000000000000000000000000000000000000000';
const nodes: GraphNode[] = [
  { wallet: zero, class: 'zero', tokens: 0 },
  { wallet: '0xa', class: 'holder', tokens: 9 },
  { wallet: '0xb', class: 'former', tokens: 0 },
  { wallet: '0xc', class: 'holder', tokens: 1 },
];
const links: GraphLink[] = [
  { source: zero, target: '0xa', value: 9 },
  { source: zero, target: '0xb', value: 1 },
  { source: '0xb', target: '0xc', value: 1 },
];

describe('the transaction graph layout', () => {
  it('places every wallet and link of the answer, at finite points inside its box', () => {
    const layout = layoutStarmap(nodes, links);
    expect(layout.nodes.map((n) => n.wallet)).toEqual([zero, '0xa', '0xb', '0xc']);
    expect(layout.links.map((l) => [l.source.wallet, l.target.wallet])).toEqual(links.map((l) => [l.source, l.target]));
    const { x, y, width, height } = layout.box;
    for (const n of layout.nodes) {
      expect(Number.isFinite(n.x) && Number.isFinite(n.y)).toBe(true);
      expect(n.x - n.r).toBeGreaterThanOrEqual(x);
      expect(n.y - n.r).toBeGreaterThanOrEqual(y);
      expect(n.x + n.r).toBeLessThanOrEqual(x + width);
      expect(n.y + n.r).toBeLessThanOrEqual(y + height);
    }
  });

  it('is computed at once and the same every time (no timer, no chance)', () => {
    expect(layoutStarmap(nodes, links)).toEqual(layoutStarmap(nodes, links));
  });

  it('pulls linked wallets together: a link is shorter than the distance between unlinked ones', () => {
    const many: GraphNode[] = Array.from({ length: 12 }, (_, i) => ({ wallet: `0x${i}`, class: 'holder', tokens: 1 }));
    const layout = layoutStarmap(many, [{ source: '0x0', target: '0x11', value: 3 }]);
    const at = new Map(layout.nodes.map((n) => [n.wallet, n]));
    const dist = (a: string, b: string) => Math.hypot(at.get(a)!.x - at.get(b)!.x, at.get(a)!.y - at.get(b)!.y);
    expect(dist('0x0', '0x11')).toBeLessThan(dist('0x0', '0x6'));
  });

  it('leaves out a link to a wallet the answer does not list', () => {
    expect(layoutStarmap(nodes, [...links, { source: '0xa', target: '0xmissing', value: 2 }]).links).toHaveLength(3);
  });

  it('grows a wallet with its tokens and a link with its transfers, within bounds', () => {
    expect(nodeRadius(0)).toBe(4);
    expect(nodeRadius(9)).toBeGreaterThan(nodeRadius(1));
    expect(nodeRadius(1_000_000)).toBe(28);
    expect(linkWidth(1)).toBe(1);
    expect(linkWidth(4)).toBe(3);
    expect(linkWidth(1_000_000)).toBe(8);
  });
});
