import { Badge, Stack, Table, Text } from '@mantine/core';
import { useState } from 'react';

import { Pager } from '@/components/ui/pager';
import { LoadingRows } from '@/components/ui/loading-rows';
import { QueryError } from '@/components/ui/query-error';
import { WORKFLOW_POLL_MS } from '@/config/constants';
import { useRuns } from '@/features/workflows/api/get-runs';
import type { WorkflowView } from '@/lib/api/types';
import { TaskGrid } from '@/features/workflows/components/task-grid';
import { StateBadge } from '@/features/workflows/components/workflow-cells';
import { formatDuration } from '@/features/workflows/utils/duration';
import { useDates } from '@/lib/dates';

/**
 * The run history, 10 per page, newest first (spec 001 §9), and the task grid of the chosen run
 * (the newest until another is chosen). Refreshed while a run is queued or running.
 */
export function RunsPanel({ workflow }: { workflow: Pick<WorkflowView, 'id' | 'access_level' | 'project_access_level'> }) {
  const dates = useDates();
  const [page, setPage] = useState(1);
  const [chosen, setChosen] = useState<string | null>(null);
  const runs = useRuns(workflow.id, page, WORKFLOW_POLL_MS);

  if (runs.isPending) {
    return (
      <LoadingRows label="Loading runs" rows={3} height={30} />
    );
  }
  if (runs.isError) return <QueryError error={runs.error} onRetry={() => runs.refetch()} />;
  const items = runs.data.runs;
  const selected = chosen && items.some((r) => r.dag_run_id === chosen) ? chosen : (items[0]?.dag_run_id ?? null);

  return (
    <Stack>
      {items.length === 0 ? (
        <Text c="dimmed">No runs yet. Run the workflow now or wait for its schedule.</Text>
      ) : (
        <Table highlightOnHover aria-label="Runs" data-testid="runs">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Run</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th>Trigger</Table.Th>
              <Table.Th>Started</Table.Th>
              <Table.Th>Duration</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {items.map((r) => (
              <Table.Tr
                key={r.dag_run_id}
                data-testid="run-row"
                data-run={r.dag_run_id}
                aria-selected={r.dag_run_id === selected}
                bg={r.dag_run_id === selected ? 'var(--mantine-color-blue-light)' : undefined}
              >
                <Table.Td>
                  <Text
                    size="sm"
                    ff="monospace"
                    component="button"
                    type="button"
                    style={{ background: 'none', border: 0, padding: 0, cursor: 'pointer', color: 'inherit' }}
                    aria-label={`Show the tasks of ${r.dag_run_id}`}
                    onClick={() => setChosen(r.dag_run_id)}
                  >
                    {r.dag_run_id}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <StateBadge state={r.state} />
                  {r.waiting && (
                    <Text size="xs" c="orange" maw={260} role="status">
                      {r.waiting}
                    </Text>
                  )}
                </Table.Td>
                <Table.Td>
                  <Badge size="xs" variant="outline" color="gray">
                    {r.trigger}
                  </Badge>
                </Table.Td>
                <Table.Td>{r.start_date ? dates.dateTime(r.start_date) : '-'}</Table.Td>
                <Table.Td>{formatDuration(r.duration)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {(items.length > 0 || page > 1) && runs.data.total_pages > 1 && (
        <Pager
          label="Run pages"
          page={page}
          pages={runs.data.total_pages}
          hasPrev={page > 1}
          hasNext={page < runs.data.total_pages}
          loading={runs.isPlaceholderData}
          onPrev={() => setPage(page - 1)}
          onNext={() => setPage(page + 1)}
        />
      )}
      {selected && <TaskGrid key={selected} workflow={workflow} dagRunId={selected} />}
    </Stack>
  );
}
