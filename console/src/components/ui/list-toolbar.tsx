import { Box, Flex, Group, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ReactNode } from 'react';

/**
 * A listing page's controls in aligned rows: the search, then the filters (each an equal share of
 * one row on a narrow screen, their own width beside the search on a wide one), and at the end the
 * count and view switches.
 */
export function ListToolbar({
  search,
  filters = [],
  end,
}: {
  /** The search box: its label (also its placeholder), value and change. */
  search: { label: string; value: string; onChange: (value: string) => void };
  filters?: ReactNode[];
  end?: ReactNode;
}) {
  return (
    <Group justify="space-between" gap="sm" data-testid="list-toolbar">
      <Flex gap="sm" wrap={{ base: 'wrap', sm: 'nowrap' }} w={{ base: '100%', sm: 'auto' }}>
        <Box w={{ base: '100%', sm: 260 }}>
          <TextInput
            placeholder={search.label}
            aria-label={search.label}
            leftSection={<IconSearch size={16} />}
            value={search.value}
            onChange={(e) => search.onChange(e.currentTarget.value)}
          />
        </Box>
        {filters.length > 0 && (
          <Flex gap="sm" wrap="nowrap" w={{ base: '100%', sm: 'auto' }}>
            {filters.map((f, i) => (
              <Box key={i} style={{ flex: '1 1 0', minWidth: 0 }}>
                {f}
              </Box>
            ))}
          </Flex>
        )}
      </Flex>
      {end && (
        <Group gap="sm" justify="space-between" w={{ base: '100%', sm: 'auto' }}>
          {end}
        </Group>
      )}
    </Group>
  );
}
