import { Button, Checkbox, Chip, Group, Stack, Text, TextInput, Tooltip } from '@mantine/core';
import { useState } from 'react';

import { useUpdateSchedule } from '@/features/workflows/api/update-schedule';
import type { WorkflowView } from '@/lib/api/types';
import { scheduleBlocked } from '@/features/workflows/utils/access';
import { buildCron, DAY_NAMES, describeSchedule, parseCron, type ScheduleChoice } from '@/features/workflows/utils/cron';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';
import { useSession } from '@/lib/auth';
import { notify } from '@/lib/notify';

/** The user's time zone (profile), else the browser's. */
export function useTimeZone(): string {
  const { user } = useSession();
  return user?.timezone || Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

const DEFAULT_TIME = '09:00';

/**
 * The schedule editor (spec 001 §4, §9): days 0 (Sunday) … 6 or 'No Schedule', and a time in the
 * user's time zone; saved as a UTC cron 'minute hour * * days' (or 'None'). Needs execute on the
 * workflow and edit on the project.
 */
export function ScheduleEditor({
  workflow,
  onSaved,
}: {
  workflow: Pick<WorkflowView, 'id' | 'project_id' | 'schedule' | 'access_level' | 'project_access_level'>;
  onSaved?: (cron: string) => void;
}) {
  const timeZone = useTimeZone();
  const stored = parseCron(workflow.schedule, timeZone);
  const [choice, setChoice] = useState<ScheduleChoice>(() => (stored && stored.days.length ? stored : { days: [], time: stored?.time || DEFAULT_TIME }));
  const [timeError, setTimeError] = useState<string>();
  const blocked = scheduleBlocked(workflow);
  const save = useUpdateSchedule({
    onSuccess: (message) => notify.success(message || WORKFLOW_MESSAGES.scheduleUpdated),
    onError: () => notify.error(WORKFLOW_MESSAGES.scheduleFailed),
  });
  const none = choice.days.length === 0;

  function submit() {
    const cron = buildCron(choice, timeZone);
    if (cron === null) return setTimeError('Please enter a time as HH:mm');
    save.mutate({ id: workflow.id, value: cron, project_id: workflow.project_id }, { onSuccess: () => onSaved?.(cron) });
  }

  return (
    <Stack gap="xs" data-testid="schedule-editor">
      <Text size="sm">
        Schedule: <b>{describeSchedule(stored, workflow.schedule)}</b>{' '}
        <Text span size="xs" c="dimmed">
          ({workflow.schedule === 'None' ? 'unscheduled' : `${workflow.schedule} UTC`})
        </Text>
      </Text>
      <Checkbox
        label="No Schedule"
        checked={none}
        disabled={!!blocked}
        onChange={(e) => setChoice((c) => ({ ...c, days: e.currentTarget.checked ? [] : [1, 2, 3, 4, 5] }))}
      />
      <Chip.Group multiple value={choice.days.map(String)} onChange={(v) => setChoice((c) => ({ ...c, days: v.map(Number).sort() }))}>
        <Group gap={6} aria-label="Days">
          {DAY_NAMES.map((d, i) => (
            <Chip key={d} value={String(i)} size="xs" disabled={!!blocked}>
              {d.slice(0, 3)}
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      <Group align="flex-end">
        <TextInput
          type="time"
          label={`Time (${timeZone})`}
          value={choice.time}
          disabled={none || !!blocked}
          error={timeError}
          onChange={(e) => {
            const time = e.currentTarget.value;
            setChoice((c) => ({ ...c, time }));
            setTimeError(undefined);
          }}
        />
        <Tooltip label={blocked} disabled={!blocked}>
          <Button variant="light" onClick={blocked ? undefined : submit} loading={save.isPending} aria-disabled={blocked ? 'true' : undefined} data-disabled={blocked ? true : undefined}>
            Save schedule
          </Button>
        </Tooltip>
      </Group>
    </Stack>
  );
}
