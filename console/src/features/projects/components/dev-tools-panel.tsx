import { ActionIcon, Box, Group, Paper, Stack, Text } from '@mantine/core';
import { IconX } from '@tabler/icons-react';
import type { ReactNode } from 'react';

import { ResizeHandle } from '@/components/ui/resize-handle';
import { DEV_TOOLS_WIDTH } from '@/config/constants';

export type DevPanel = { key: string; title: string; content: ReactNode };

/** The height share of each open panel: 100 %, 50 % or 33.33 % (spec 001 §9). */
export function panelHeight(open: number): string {
  return `${open > 0 ? Math.round((100 / open) * 100) / 100 : 100}%`;
}

/**
 * The dev-tools side panel (spec 001 §2, §9): 500 px wide by default, 200–550 px with its handle,
 * the open panels (env vars, logs, terminal) stacked and sharing its height.
 */
export function DevToolsPanel({
  panels,
  width,
  onResize,
  onClose,
}: {
  panels: DevPanel[];
  width: number;
  onResize: (width: number) => void;
  onClose: (key: string) => void;
}) {
  if (panels.length === 0) return null;
  const height = panelHeight(panels.length);
  return (
    <>
      <ResizeHandle label="Resize dev tools" width={width} limits={DEV_TOOLS_WIDTH} side="right" onResize={onResize} />
      <Stack component="aside" aria-label="Dev tools" gap={0} w={width} miw={DEV_TOOLS_WIDTH.min} h="100%" style={{ flex: '0 0 auto' }}>
        {panels.map((p) => (
          <Paper
            key={p.key}
            component="section"
            aria-label={p.title}
            withBorder
            radius={0}
            p={6}
            h={height}
            data-height={height}
            style={{ display: 'flex', flexDirection: 'column', minHeight: 0 }}
          >
            <Group justify="space-between" mb={4} wrap="nowrap">
              <Text size="xs" fw={700} tt="uppercase" c="dimmed">
                {p.title}
              </Text>
              <ActionIcon size="xs" variant="subtle" color="gray" aria-label={`Close ${p.title}`} onClick={() => onClose(p.key)}>
                <IconX size={12} />
              </ActionIcon>
            </Group>
            <Box style={{ flex: 1, minHeight: 0 }}>{p.content}</Box>
          </Paper>
        ))}
      </Stack>
    </>
  );
}
