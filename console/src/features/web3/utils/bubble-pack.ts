import { hierarchy, pack } from 'd3-hierarchy';

import type { OverlapBubble } from '@/features/web3/api/types';
import type { Box } from '@/features/web3/utils/graph-layout';

/** A bubble placed by the pack: its centre and radius. */
export type PackedBubble = OverlapBubble & { x: number; y: number; r: number };
export type BubblePack = { bubbles: PackedBubble[]; box: Box };

type Datum = { bubble?: OverlapBubble; children?: Datum[] };

const SIZE = 600;
const PADDING = 8;

/**
 * One circle per bubble, packed with d3-hierarchy's `pack()`, its area by `current_wallets` (at
 * least 1, so a collection without holders still shows). The answer's order is kept (base first,
 * then by overlap), and the drawing is centred on the base.
 */
export function packBubbles(bubbles: readonly OverlapBubble[]): BubblePack {
  const root = hierarchy<Datum>({ children: bubbles.map((bubble) => ({ bubble })) }).sum((d) =>
    d.bubble ? Math.max(1, d.bubble.current_wallets) : 0,
  );
  const leaves = pack<Datum>().size([SIZE, SIZE]).padding(PADDING)(root).leaves();
  const packed = leaves.filter((l) => l.data.bubble).map((l) => ({ ...l.data.bubble!, x: l.x, y: l.y, r: l.r }));
  if (packed.length === 0) return { bubbles: [], box: { x: 0, y: 0, width: SIZE, height: SIZE } };
  const centre = packed.find((b) => b.group === 'base') ?? packed[0];
  // Half the side of a square around the base that holds every bubble.
  const half = Math.max(...packed.map((b) => Math.max(Math.abs(b.x - centre.x), Math.abs(b.y - centre.y)) + b.r)) + PADDING;
  return { bubbles: packed, box: { x: centre.x - half, y: centre.y - half, width: 2 * half, height: 2 * half } };
}
