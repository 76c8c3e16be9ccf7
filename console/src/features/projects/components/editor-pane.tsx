import { ActionIcon, Badge, Box, Center, Group, Loader, ScrollArea, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconCode, IconX } from '@tabler/icons-react';
import { lazy, Suspense } from 'react';

import { EmptyState } from '@/components/ui/empty-state';
import { isDirty, type OpenFile } from '@/features/projects/components/open-files';
import { baseName } from '@/features/projects/utils/files';

/** CodeMirror is its own chunk, loaded when the first file opens. */
const CodeEditor = lazy(() => import('@/features/projects/components/code-editor').then((m) => ({ default: m.CodeEditor })));

export const UNSAVED_LABEL = 'has unsaved changes';

type Props = {
  files: OpenFile[];
  active: OpenFile | null;
  readOnly: boolean;
  loadingPath: string | null;
  onActivate: (path: string) => void;
  onClose: (path: string) => void;
  onEdit: (path: string, text: string) => void;
};

/**
 * The open files as tabs, each marked while it has unsaved changes, and the editor for the shown
 * one (read-only for view and execute access, spec 001 §4).
 */
export function EditorPane({ files, active, readOnly, loadingPath, onActivate, onClose, onEdit }: Props) {
  return (
    <Stack gap={0} h="100%" style={{ flex: 1, minWidth: 0 }}>
      {files.length > 0 && (
        <ScrollArea type="auto" scrollbars="x" offsetScrollbars={false}>
          <Group gap={0} wrap="nowrap" role="tablist" aria-label="Open files">
            {files.map((f) => {
              const selected = f.path === active?.path;
              const dirty = isDirty(f);
              return (
                <Group
                  key={f.path}
                  gap={2}
                  wrap="nowrap"
                  px={8}
                  py={4}
                  style={{
                    borderBottom: selected ? '2px solid var(--mantine-primary-color-filled)' : '2px solid transparent',
                    background: selected ? 'var(--mantine-color-default-hover)' : undefined,
                  }}
                >
                  <UnstyledButton role="tab" aria-selected={selected} title={f.path} onClick={() => onActivate(f.path)} fz="sm">
                    {baseName(f.path)}
                    {dirty && (
                      <Text span c="orange" ml={4} aria-label={UNSAVED_LABEL}>
                        ●
                      </Text>
                    )}
                  </UnstyledButton>
                  <ActionIcon size="xs" variant="subtle" color="gray" aria-label={`Close ${baseName(f.path)}`} onClick={() => onClose(f.path)}>
                    <IconX size={12} />
                  </ActionIcon>
                </Group>
              );
            })}
          </Group>
        </ScrollArea>
      )}
      <Box style={{ flex: 1, minHeight: 0, border: '1px solid var(--mantine-color-default-border)' }} role="tabpanel" aria-label={active ? active.path : 'Editor'}>
        {loadingPath && !active && (
          <Center h="100%" role="status" aria-label={`Opening ${loadingPath}`}>
            <Loader size="sm" />
          </Center>
        )}
        {!active && !loadingPath && <EmptyState title="No file open" hint="Choose a file on the left to see it here." />}
        {active?.binary && (
          <Center h="100%">
            <Text size="sm" c="dimmed">
              {baseName(active.path)} is not a text file; it cannot be shown here.
            </Text>
          </Center>
        )}
        {active && !active.binary && (
          <Suspense
            fallback={
              <Center h="100%" role="status" aria-label="Loading the editor">
                <Loader size="sm" />
              </Center>
            }
          >
            <CodeEditor key={active.path} path={active.path} value={active.text} readOnly={readOnly} onChange={(text) => onEdit(active.path, text)} />
          </Suspense>
        )}
      </Box>
      <Group justify="space-between" px={6} py={2} gap="xs" wrap="nowrap" role="status" aria-label="Editor status">
        <Group gap={6} wrap="nowrap" miw={0}>
          <IconCode size={13} />
          <Text size="xs" c="dimmed" truncate>
            {active ? active.path : 'No file'}
          </Text>
          {active && isDirty(active) && (
            <Text size="xs" c="orange">
              {UNSAVED_LABEL}
            </Text>
          )}
        </Group>
        {readOnly && (
          <Badge size="xs" variant="light" color="gray">
            Read only
          </Badge>
        )}
      </Group>
    </Stack>
  );
}
