import { Box, Group, Stack } from '@mantine/core';
import { useMemo, useRef } from 'react';

import type { GraphLink, GraphNode } from '@/features/web3/api/types';
import { GraphLegend, NODE_COLORS } from '@/features/web3/components/graph-legend';
import { useGraphZoom } from '@/features/web3/components/use-graph-zoom';
import { ZoomControls } from '@/features/web3/components/zoom-controls';
import { layoutStarmap, type PlacedNode } from '@/features/web3/utils/graph-layout';

const HEIGHT = 560;

function nodeTitle(n: PlacedNode) {
  if (n.class === 'zero') return `${n.wallet} (zero address: mints come from it, burns go to it)`;
  return `${n.wallet}\n${n.tokens.toLocaleString('en-US')} ${n.tokens === 1 ? 'token' : 'tokens'}${n.class === 'former' ? ' (former holder)' : ''}`;
}

/**
 * The starmap as a force-directed graph (spec 001 §2): one circle per wallet, coloured by its
 * class and sized by its tokens, one line per (from, to) pair, as wide as its transfers. Laid out
 * once per answer (utils/graph-layout), drawn in SVG, with pan and zoom from 0.3 to 3.
 */
export function TransactionGraph({ nodes, links }: { nodes: GraphNode[]; links: GraphLink[] }) {
  const layout = useMemo(() => layoutStarmap(nodes, links), [nodes, links]);
  const svgRef = useRef<SVGSVGElement>(null);
  const zoom = useGraphZoom(svgRef, layout.box);
  const { x, y, width, height } = layout.box;

  return (
    <Stack gap="xs">
      <Group justify="space-between" align="center">
        <GraphLegend />
        <ZoomControls zoom={zoom} />
      </Group>
      <Box bd="1px solid var(--mantine-color-default-border)" style={{ borderRadius: 'var(--mantine-radius-md)', overflow: 'hidden' }}>
        <svg
          ref={svgRef}
          viewBox={`${x} ${y} ${width} ${height}`}
          width="100%"
          height={HEIGHT}
          role="img"
          aria-label={`Transaction graph: ${layout.nodes.length} wallets, ${layout.links.length} links`}
          style={{ display: 'block', cursor: 'grab', touchAction: 'none' }}
        >
          <g transform={zoom.transform.toString()} data-testid="graph-viewport" data-scale={zoom.transform.k}>
            <g stroke="var(--mantine-color-gray-5)" strokeOpacity={0.7} strokeLinecap="round">
              {layout.links.map((l) => (
                <line key={`${l.source.wallet}>${l.target.wallet}`} x1={l.source.x} y1={l.source.y} x2={l.target.x} y2={l.target.y} strokeWidth={l.width}>
                  <title>{`${l.source.wallet} → ${l.target.wallet}: ${l.value} ${l.value === 1 ? 'transfer' : 'transfers'}`}</title>
                </line>
              ))}
            </g>
            <g stroke="var(--mantine-color-body)" strokeWidth={1}>
              {layout.nodes.map((n) => (
                <circle key={n.wallet} cx={n.x} cy={n.y} r={n.r} fill={NODE_COLORS[n.class]} data-class={n.class}>
                  <title>{nodeTitle(n)}</title>
                </circle>
              ))}
            </g>
          </g>
        </svg>
      </Box>
    </Stack>
  );
}
