import type { DesignerEdge } from '@/lib/api/types';

/** Why the designer refuses a connection (spec 001 §4 "Cycles and self-connections are forbidden"). */
export const CONNECTION_MESSAGES = {
  self: 'A task cannot depend on itself',
  cycle: 'Cycles are not allowed',
  duplicate: 'These tasks are already connected',
} as const;

type Edge = Pick<DesignerEdge, 'source' | 'target'>;

/** Whether `to` can be reached from `from` along `edges`. */
export function reaches(edges: readonly Edge[], from: string, to: string): boolean {
  const next = new Map<string, string[]>();
  for (const e of edges) next.set(e.source, [...(next.get(e.source) ?? []), e.target]);
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const n = stack.pop()!;
    if (n === to) return true;
    if (seen.has(n)) continue;
    seen.add(n);
    stack.push(...(next.get(n) ?? []));
  }
  return false;
}

/** Why `source → target` may not be added to `edges`, or null when it may. */
export function refuseConnection(edges: readonly Edge[], source: string, target: string): string | null {
  if (source === target) return CONNECTION_MESSAGES.self;
  if (edges.some((e) => e.source === source && e.target === target)) return CONNECTION_MESSAGES.duplicate;
  // The new edge closes a cycle exactly when the source is already reachable from the target.
  if (reaches(edges, target, source)) return CONNECTION_MESSAGES.cycle;
  return null;
}

/** Whether the graph has a cycle (a self-connection included): Kahn's algorithm leaves a node over. */
export function hasCycle(nodeIds: readonly string[], edges: readonly Edge[]): boolean {
  const indegree = new Map(nodeIds.map((id) => [id, 0]));
  for (const e of edges) {
    if (e.source === e.target) return true;
    indegree.set(e.target, (indegree.get(e.target) ?? 0) + 1);
    if (!indegree.has(e.source)) indegree.set(e.source, 0);
  }
  const ready = [...indegree].filter(([, d]) => d === 0).map(([id]) => id);
  let visited = 0;
  while (ready.length) {
    const n = ready.pop()!;
    visited++;
    for (const e of edges) {
      if (e.source !== n) continue;
      const d = indegree.get(e.target)! - 1;
      indegree.set(e.target, d);
      if (d === 0) ready.push(e.target);
    }
  }
  return visited < indegree.size;
}

/** The edges left once the nodes `removed` are deleted: none that touches them. */
export function edgesWithout<E extends Edge>(edges: readonly E[], removed: ReadonlySet<string>): E[] {
  return edges.filter((e) => !removed.has(e.source) && !removed.has(e.target));
}
