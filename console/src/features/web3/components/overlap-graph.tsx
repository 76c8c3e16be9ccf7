import { Box } from '@mantine/core';
import { useMemo } from 'react';

import type { OverlapBubble } from '@/features/web3/api/types';
import { packBubbles, type PackedBubble } from '@/features/web3/utils/bubble-pack';
import { percent } from '@/features/web3/utils/numbers';

const HEIGHT = 520;

function bubbleTitle(b: PackedBubble) {
  const name = b.collection_name || b.contract_address;
  const what = b.group === 'base' ? 'this collection' : `${percent(b.overlap_wallet_perc)} of this collection's holders`;
  return `${name} (${what})\n${b.current_wallets.toLocaleString('en-US')} wallets, ${b.tokens_held.toLocaleString('en-US')} tokens held${b.spam ? '\nLooks like spam (an airdrop)' : ''}`;
}

/** The name and the percentage inside a circle, when the circle is large enough to hold them. */
function BubbleLabel({ b }: { b: PackedBubble }) {
  if (b.r < 18) return null;
  const size = Math.max(9, Math.min(16, b.r / 4));
  const name = b.collection_name || `${b.contract_address.slice(0, 8)}…`;
  const fits = Math.floor((2 * b.r * 0.8) / (size * 0.6));
  return (
    <text textAnchor="middle" fontSize={size} fill="var(--mantine-color-text)" pointerEvents="none">
      <tspan x={b.x} y={b.y - size * 0.2}>
        {name.length > fits ? `${name.slice(0, Math.max(1, fits - 1))}…` : name}
      </tspan>
      <tspan x={b.x} y={b.y + size * 1.1} fontWeight={700}>
        {percent(b.overlap_wallet_perc)}
      </tspan>
      {b.spam && (
        <tspan x={b.x} y={b.y + size * 2.3} fill="var(--mantine-color-red-7)" fontSize={size * 0.8}>
          spam
        </tspan>
      )}
    </text>
  );
}

/**
 * The overlapping collections (spec 001 §2): one circle per bubble, its area by the shared
 * holders, labelled with the collection and its overlap; the base collection in the middle and
 * highlighted, a spam collection dashed and marked.
 */
export function OverlapGraph({ bubbles }: { bubbles: OverlapBubble[] }) {
  const pack = useMemo(() => packBubbles(bubbles), [bubbles]);
  const { x, y, width, height } = pack.box;
  return (
    <Box bd="1px solid var(--mantine-color-default-border)" style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}>
      <svg viewBox={`${x} ${y} ${width} ${height}`} width="100%" height={HEIGHT} role="img" aria-label={`Overlapping collections: ${pack.bubbles.length} bubbles`}>
        {pack.bubbles.map((b) => (
          <g key={b.contract_address} data-testid="bubble" data-group={b.group} data-spam={b.spam}>
            <circle
              cx={b.x}
              cy={b.y}
              r={b.r}
              fill={b.group === 'base' ? 'var(--mantine-color-blue-2)' : 'var(--mantine-color-teal-1)'}
              stroke={b.spam ? 'var(--mantine-color-red-6)' : b.group === 'base' ? 'var(--mantine-color-blue-7)' : 'var(--mantine-color-teal-6)'}
              strokeWidth={b.group === 'base' ? 3 : 1.5}
              strokeDasharray={b.spam ? '6 4' : undefined}
            >
              <title>{bubbleTitle(b)}</title>
            </circle>
            <BubbleLabel b={b} />
          </g>
        ))}
      </svg>
    </Box>
  );
}
