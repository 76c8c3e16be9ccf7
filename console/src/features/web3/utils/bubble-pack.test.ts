import { describe, expect, it } from 'vitest';

import type { OverlapBubble } from '@/features/web3/api/types';
import { packBubbles } from '@/features/web3/utils/bubble-pack';

function bubble(patch: Partial<OverlapBubble>): OverlapBubble {
  return {
    contract_address: '0xbase',
    collection_name: 'Base',
    overlap_wallet_perc: 100,
    current_wallets: 100,
    tokens_held: 120,
    group: 'base',
    spam: false,
    ...patch,
  };
}

const answer = [
  bubble({}),
  bubble({ contract_address: '0xb', collection_name: 'B', overlap_wallet_perc: 40, current_wallets: 40, group: 'overlap' }),
  bubble({ contract_address: '0xc', collection_name: 'C', overlap_wallet_perc: 10, current_wallets: 10, group: 'overlap', spam: true }),
];

describe('the overlap bubbles pack', () => {
  it("keeps one circle per bubble in the answer's order, the base first and in the middle", () => {
    const { bubbles, box } = packBubbles(answer);
    expect(bubbles.map((b) => b.contract_address)).toEqual(['0xbase', '0xb', '0xc']);
    expect(box.x + box.width / 2).toBeCloseTo(bubbles[0].x);
    expect(box.y + box.height / 2).toBeCloseTo(bubbles[0].y);
  });

  it('gives each circle an area in proportion to its current wallets, none overlapping', () => {
    const { bubbles } = packBubbles(answer);
    const area = (i: number) => bubbles[i].r ** 2;
    expect(area(0) / area(1)).toBeCloseTo(100 / 40);
    expect(area(1) / area(2)).toBeCloseTo(40 / 10);
    for (const [i, j] of [[0, 1], [0, 2], [1, 2]]) {
      expect(Math.hypot(bubbles[i].x - bubbles[j].x, bubbles[i].y - bubbles[j].y)).toBeGreaterThanOrEqual(bubbles[i].r + bubbles[j].r);
    }
  });

  it('draws a base without holders yet, and nothing for no bubbles', () => {
    const { bubbles } = packBubbles([bubble({ current_wallets: 0 })]);
    expect(bubbles).toHaveLength(1);
    expect(bubbles[0].r).toBeGreaterThan(0);
    expect(packBubbles([]).bubbles).toEqual([]);
  });
});
