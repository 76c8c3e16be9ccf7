import { Badge, Code, Group, Loader, Select, Text, Tooltip } from '@mantine/core';

import { useLaunch } from '@/features/projects/api/get-launch';
import { isEntryFile } from '@/features/projects/utils/files';

/** The Select's value for "the launch rule picks". */
const AUTOMATIC = '';

type Props = {
  projectId: string;
  /** The project's files (root folder and open files), from which entry files are offered. */
  files: string[];
  /** The file Run starts; null: the launch rule's first candidate. */
  value: string | null;
  onChange: (file: string | null) => void;
  /** Why the file may not be changed (below execute access), else null. */
  blocked: string | null;
};

/**
 * Beside Run: which file Run starts and what runs it — `streamlit run app.py` (Streamlit), `python
 * main.py` — as the launch rule decides from the file at the branch head, the same rule the
 * preview's container applies. "Automatic" leaves it to the rule (app.py, main.py, …).
 */
export function LaunchPicker({ projectId, files, value, onChange, blocked }: Props) {
  const launch = useLaunch(projectId, value);
  const entries = [...new Set([...files.filter(isEntryFile), ...(value ? [value] : [])])].sort();
  const data = [{ value: AUTOMATIC, label: 'Automatic' }, ...entries.map((f) => ({ value: f, label: f }))];
  const select = (
    <Select
      size="xs"
      w={150}
      aria-label="File to run"
      data={data}
      value={value ?? AUTOMATIC}
      allowDeselect={false}
      disabled={!!blocked}
      onChange={(v) => onChange(v ? v : null)}
    />
  );
  const shown = launch.data;
  return (
    <Group gap={6} wrap="nowrap" aria-label="What Run runs" role="group">
      {blocked ? (
        <Tooltip label={blocked}>
          <div>{select}</div>
        </Tooltip>
      ) : (
        <Tooltip label={`Automatic runs the first of ${shown?.candidates.join(', ') ?? 'app.py, main.py, …'} that exists`}>{select}</Tooltip>
      )}
      {launch.isPending ? (
        <Loader size="xs" aria-label="Finding what runs" />
      ) : launch.isError ? (
        <Text size="xs" c="red" role="alert">
          {launch.error.message}
        </Text>
      ) : shown ? (
        <Tooltip label={shown.serves ? 'It serves the web view' : 'It prints and ends: see its log'}>
          <Group gap={4} wrap="nowrap">
            <Code aria-label="Command" style={{ whiteSpace: 'nowrap' }}>
              {shown.command}
            </Code>
            <Badge size="xs" variant="light" color={shown.serves ? 'teal' : 'gray'}>
              {shown.framework}
            </Badge>
          </Group>
        </Tooltip>
      ) : null}
    </Group>
  );
}
