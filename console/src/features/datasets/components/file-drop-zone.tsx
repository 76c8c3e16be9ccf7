import { Button, Paper, Stack, Text } from '@mantine/core';
import { IconUpload } from '@tabler/icons-react';
import { type DragEvent, forwardRef, type ReactNode, useImperativeHandle, useRef, useState } from 'react';

import { DATASET_EXTENSIONS } from '@/config/constants';
import { ACCEPTED_LIST, partitionFiles } from '@/features/datasets/utils/files';

export type FilePickerHandle = { open: () => void };

type PickerProps = {
  /** The accepted files of one pick or drop. */
  onFiles: (files: File[]) => void;
  /** Names of the files refused for their extension. */
  onRefused: (names: string[]) => void;
  /** The hidden input's accessible name. */
  label: string;
};

/** A hidden multi-file input limited to the dataset extensions; `open()` shows the picker. */
export const FilePicker = forwardRef<FilePickerHandle, PickerProps>(function FilePicker({ onFiles, onRefused, label }, ref) {
  const input = useRef<HTMLInputElement>(null);
  useImperativeHandle(ref, () => ({ open: () => input.current?.click() }), []);
  return (
    <input
      ref={input}
      type="file"
      multiple
      hidden
      aria-label={label}
      accept={DATASET_EXTENSIONS.join(',')}
      onChange={(e) => {
        const files = Array.from(e.currentTarget.files ?? []);
        // The same file can be picked again after a failure.
        e.currentTarget.value = '';
        deliver(files, onFiles, onRefused);
      }}
    />
  );
});

function deliver(files: File[], onFiles: (f: File[]) => void, onRefused: (n: string[]) => void) {
  const { accepted, refused } = partitionFiles(files);
  // Accepted first: a refusal message must outlive the accepted files' update.
  if (accepted.length) onFiles(accepted);
  if (refused.length) onRefused(refused);
}

/** Handlers that take dropped files onto any element. */
export function useFileDrop(onFiles: (f: File[]) => void, onRefused: (n: string[]) => void, enabled = true) {
  const [over, setOver] = useState(false);
  const handlers = {
    onDragOver: (e: DragEvent) => {
      if (!enabled || !e.dataTransfer?.types?.includes('Files')) return;
      e.preventDefault();
      setOver(true);
    },
    onDragLeave: () => setOver(false),
    onDrop: (e: DragEvent) => {
      if (!enabled) return;
      e.preventDefault();
      setOver(false);
      deliver(Array.from(e.dataTransfer?.files ?? []), onFiles, onRefused);
    },
  };
  return { over, handlers };
}

/** A drop zone with a 'Browse files' button (the create form). */
export function FileDropZone({ onFiles, onRefused, error, children }: Omit<PickerProps, 'label'> & { error?: string; children?: ReactNode }) {
  const picker = useRef<FilePickerHandle>(null);
  const { over, handlers } = useFileDrop(onFiles, onRefused);
  return (
    <Stack gap={4}>
      <Paper
        withBorder
        p="lg"
        radius="md"
        data-testid="file-drop-zone"
        style={{
          borderStyle: 'dashed',
          borderColor: error ? 'var(--mantine-color-red-6)' : over ? 'var(--mantine-color-indigo-5)' : undefined,
          background: over ? 'var(--mantine-color-indigo-0)' : undefined,
        }}
        {...handlers}
      >
        <Stack align="center" gap={6}>
          <IconUpload size={28} color="var(--mantine-color-dimmed)" />
          <Text size="sm">Drag files here, or</Text>
          <Button variant="light" size="xs" onClick={() => picker.current?.open()}>
            Browse files
          </Button>
          <Text size="xs" c="dimmed">
            {ACCEPTED_LIST}; several files at once
          </Text>
          {children}
        </Stack>
        <FilePicker ref={picker} label="Files" onFiles={onFiles} onRefused={onRefused} />
      </Paper>
      {error && (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      )}
    </Stack>
  );
}
