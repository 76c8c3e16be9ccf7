import { Box, Group, Text } from '@mantine/core';

import type { GraphNodeClass } from '@/features/web3/api/types';

/** A wallet's colour by its class. */
export const NODE_COLORS: Record<GraphNodeClass, string> = {
  zero: 'var(--mantine-color-gray-6)',
  holder: 'var(--mantine-color-blue-6)',
  former: 'var(--mantine-color-orange-5)',
};

const LABELS: Record<GraphNodeClass, string> = {
  zero: 'Zero address (mints and burns)',
  holder: 'Holder',
  former: 'Former holder',
};

/** What the colours, sizes and widths of the transaction graph mean. */
export function GraphLegend() {
  return (
    <Group gap="md" component="ul" aria-label="Legend" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {(Object.keys(LABELS) as GraphNodeClass[]).map((k) => (
        <Group key={k} gap={6} component="li" wrap="nowrap">
          <Box w={12} h={12} style={{ borderRadius: '50%', background: NODE_COLORS[k] }} aria-hidden />
          <Text size="xs">{LABELS[k]}</Text>
        </Group>
      ))}
      <Text size="xs" c="dimmed" component="li">
        Size: tokens held · line width: transfers
      </Text>
    </Group>
  );
}
