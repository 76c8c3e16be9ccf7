import { ActionIcon, Group, Text, Tooltip } from '@mantine/core';
import { IconZoomIn, IconZoomOut, IconZoomReset } from '@tabler/icons-react';

import type { GraphZoom } from '@/features/web3/components/use-graph-zoom';

/** Zoom in, out and back, with the scale in percent. */
export function ZoomControls({ zoom }: { zoom: GraphZoom }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label="Zoom out">
        <ActionIcon variant="default" aria-label="Zoom out" disabled={!zoom.canZoomOut} onClick={zoom.zoomOut}>
          <IconZoomOut size={16} />
        </ActionIcon>
      </Tooltip>
      <Text size="xs" c="dimmed" w={48} ta="center" aria-label="Zoom level" aria-live="polite">
        {Math.round(zoom.transform.k * 100)} %
      </Text>
      <Tooltip label="Zoom in">
        <ActionIcon variant="default" aria-label="Zoom in" disabled={!zoom.canZoomIn} onClick={zoom.zoomIn}>
          <IconZoomIn size={16} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Reset zoom">
        <ActionIcon variant="default" aria-label="Reset zoom" onClick={zoom.reset}>
          <IconZoomReset size={16} />
        </ActionIcon>
      </Tooltip>
    </Group>
  );
}
