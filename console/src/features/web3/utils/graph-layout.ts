import {
  forceCollide,
  forceLink,
  forceManyBody,
  forceSimulation,
  forceX,
  forceY,
  type SimulationLinkDatum,
  type SimulationNodeDatum,
} from 'd3-force';

import type { GraphLink, GraphNode } from '@/features/web3/api/types';

/** A wallet placed by the layout; `r` grows with its tokens. */
export type PlacedNode = GraphNode & { x: number; y: number; r: number };
/** A link between placed wallets; `width` grows with its transfers. */
export type PlacedLink = { source: PlacedNode; target: PlacedNode; value: number; width: number };
/** The drawing's bounds, in the layout's coordinates (the SVG's viewBox). */
export type Box = { x: number; y: number; width: number; height: number };
export type GraphLayout = { nodes: PlacedNode[]; links: PlacedLink[]; box: Box };

type SimNode = GraphNode & SimulationNodeDatum & { r: number };
type SimLink = SimulationLinkDatum<SimNode> & { value: number };

const NODE_RADIUS = { min: 4, max: 28 } as const;
const LINK_WIDTH = { min: 1, max: 8 } as const;
const PADDING = 24;
/** The golden angle: wallets start on a sunflower spiral, in the answer's order. */
const SEED_ANGLE = Math.PI * (3 - Math.sqrt(5));

/** A wallet's radius: 4 for none, growing with the square root of its tokens, at most 28. */
export function nodeRadius(tokens: number): number {
  return Math.min(NODE_RADIUS.max, NODE_RADIUS.min + 2 * Math.sqrt(Math.max(0, tokens)));
}

/** A link's width: 1 for one transfer, one more for each doubling, at most 8. */
export function linkWidth(value: number): number {
  return Math.min(LINK_WIDTH.max, LINK_WIDTH.min + Math.log2(Math.max(1, value)));
}

/** Steps of the simulation: d3's full cooling (300) for small graphs, fewer for large ones. */
export function layoutTicks(nodeCount: number): number {
  return nodeCount > 500 ? 120 : 300;
}

function seeded(node: GraphNode, i: number): SimNode {
  const radius = 10 * Math.sqrt(0.5 + i);
  return { ...node, r: nodeRadius(node.tokens), x: radius * Math.cos(i * SEED_ANGLE), y: radius * Math.sin(i * SEED_ANGLE) };
}

function boundsOf(nodes: readonly PlacedNode[]): Box {
  if (nodes.length === 0) return { x: -100, y: -100, width: 200, height: 200 };
  const x0 = Math.min(...nodes.map((n) => n.x - n.r)) - PADDING;
  const y0 = Math.min(...nodes.map((n) => n.y - n.r)) - PADDING;
  const x1 = Math.max(...nodes.map((n) => n.x + n.r)) + PADDING;
  const y1 = Math.max(...nodes.map((n) => n.y + n.r)) + PADDING;
  return { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
}

/**
 * Places the starmap's wallets with d3-force, at once: the simulation never runs on a timer (it
 * is stopped, then stepped `layoutTicks` times), from seeded starting points and d3's own fixed
 * random source, so the same answer is always drawn the same way. Links naming a wallet that is
 * not in `nodes` are left out.
 */
export function layoutStarmap(nodes: readonly GraphNode[], links: readonly GraphLink[]): GraphLayout {
  const simNodes = nodes.map(seeded);
  const known = new Set(simNodes.map((n) => n.wallet));
  const simLinks: SimLink[] = links
    .filter((l) => known.has(l.source) && known.has(l.target))
    .map((l) => ({ source: l.source, target: l.target, value: l.value }));
  const simulation = forceSimulation<SimNode, SimLink>(simNodes)
    .force(
      'link',
      forceLink<SimNode, SimLink>(simLinks)
        .id((n) => n.wallet)
        .distance((l) => (l.source as SimNode).r + (l.target as SimNode).r + 30),
    )
    .force('charge', forceManyBody<SimNode>().strength(-60))
    .force('collide', forceCollide<SimNode>((n) => n.r + 2))
    // Keeps wallets of separate groups (and lone ones) near the middle.
    .force('x', forceX<SimNode>(0).strength(0.04))
    .force('y', forceY<SimNode>(0).strength(0.04))
    .stop();
  simulation.tick(layoutTicks(simNodes.length));

  const placed = new Map<string, PlacedNode>(
    simNodes.map(({ wallet, class: kind, tokens, r, x, y }) => [wallet, { wallet, class: kind, tokens, r, x: x ?? 0, y: y ?? 0 }]),
  );
  const placedLinks = simLinks.map((l) => ({
    source: placed.get((l.source as SimNode).wallet)!,
    target: placed.get((l.target as SimNode).wallet)!,
    value: l.value,
    width: linkWidth(l.value),
  }));
  const placedNodes = [...placed.values()];
  return { nodes: placedNodes, links: placedLinks, box: boundsOf(placedNodes) };
}
