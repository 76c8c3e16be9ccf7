import { Badge, Code, Group, Table, Text } from '@mantine/core';

import type { OverlapBubble } from '@/features/web3/api/types';
import { percent } from '@/features/web3/utils/numbers';

/** The bubbles' numbers, in the answer's order (base first). */
export function OverlapTable({ bubbles }: { bubbles: OverlapBubble[] }) {
  return (
    <Table.ScrollContainer minWidth={760}>
      <Table striped aria-label="Overlapping collections">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Contract address</Table.Th>
            <Table.Th>Name</Table.Th>
            <Table.Th>Overlap</Table.Th>
            <Table.Th>Current wallets</Table.Th>
            <Table.Th>Tokens held</Table.Th>
            <Table.Th>Spam</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {bubbles.map((b) => (
            <Table.Tr key={b.contract_address}>
              <Table.Td>
                <Code>{b.contract_address}</Code>
              </Table.Td>
              <Table.Td>
                <Group gap="xs" wrap="nowrap">
                  <Text size="sm" fw={b.group === 'base' ? 700 : undefined}>
                    {b.collection_name || '–'}
                  </Text>
                  {b.group === 'base' && (
                    <Badge size="xs" variant="light">
                      this collection
                    </Badge>
                  )}
                </Group>
              </Table.Td>
              <Table.Td>{percent(b.overlap_wallet_perc)}</Table.Td>
              <Table.Td>{b.current_wallets.toLocaleString('en-US')}</Table.Td>
              <Table.Td>{b.tokens_held.toLocaleString('en-US')}</Table.Td>
              <Table.Td>
                {b.spam ? (
                  <Badge color="red" variant="light" size="sm">
                    spam
                  </Badge>
                ) : (
                  'No'
                )}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
