import type { WorkflowFilter } from '@/config/constants';

/** What the list asks for (client-side, not a wire type). */
export type WorkflowsQuery = { filter: WorkflowFilter; page: number; search: string; projectId?: string };

/** Every workflow query starts with 'workflows', so one invalidation refreshes them all. */
export const workflowKeys = {
  all: ['workflows'] as const,
  lists: () => ['workflows', 'list'] as const,
  list: (q: WorkflowsQuery) => ['workflows', 'list', q] as const,
  detail: (id: string) => ['workflows', 'detail', id] as const,
  visual: (id: string) => ['workflows', 'visual', id] as const,
  runs: (id: string) => ['workflows', 'runs', id] as const,
  runsPage: (id: string, page: number) => ['workflows', 'runs', id, page] as const,
  tasks: (id: string, runId: string) => ['workflows', 'runs', id, 'tasks', runId] as const,
  log: (id: string, runId: string, taskId: string, tryNumber: number) => ['workflows', 'runs', id, 'log', runId, taskId, tryNumber] as const,
};
