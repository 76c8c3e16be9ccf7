import { ActionIcon, Tooltip } from '@mantine/core';
import { IconInfoCircle } from '@tabler/icons-react';

/** An ⓘ beside a figure whose tooltip says what it counts ('What Active users counts'). */
export function DefinitionHint({ label, definition }: { label: string; definition: string }) {
  return (
    <Tooltip label={definition} multiline w={260} events={{ hover: true, focus: true, touch: true }}>
      <ActionIcon variant="subtle" color="gray" size="xs" aria-label={`What ${label} counts`}>
        <IconInfoCircle size={14} />
      </ActionIcon>
    </Tooltip>
  );
}
