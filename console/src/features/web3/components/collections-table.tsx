import { Anchor, Badge, Box, Button, Group, Pagination, Skeleton, Stack, Table, Text } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';

import { EmptyState } from '@/components/ui/empty-state';
import { QueryError } from '@/components/ui/query-error';
import { LIST_PAGE_SIZE } from '@/config/constants';
import { paths } from '@/config/paths';
import { useCollections } from '@/features/web3/api/get-collections';
import { CollectionStatusIcon } from '@/features/web3/components/collection-status-icon';
import { CollectionSymbol } from '@/features/web3/components/collection-symbol';
import { ContractAddress } from '@/features/web3/components/contract-address';
import { useDates } from '@/lib/dates';

const COLUMNS = ['Name', 'Status', 'Symbol', 'Contract address', 'Type', 'Chain', 'Slug', 'Created', 'Transfers', 'Holders'];

/**
 * /collections (spec 001 §2, §3, §9): pages of 10, newest first, each collection's indexing
 * status as an icon, and 'Add Collection'. Asks again every 2 s while one is indexing.
 */
export function CollectionsTable() {
  const [page, setPage] = useState(1);
  const { dateTime } = useDates();
  const collections = useCollections({ page, pageSize: LIST_PAGE_SIZE });
  const rows = collections.data?.collections ?? [];
  const pages = Math.max(1, Math.ceil((collections.data?.total ?? 0) / LIST_PAGE_SIZE));

  return (
    <Stack>
      <Group justify="flex-end">
        <Button component={Link} to={paths.collectionNew.getHref()} leftSection={<IconPlus size={16} />}>
          Add Collection
        </Button>
      </Group>
      {collections.isPending && <Skeleton h={240} aria-label="Loading collections" />}
      {collections.isError && <QueryError error={collections.error} onRetry={() => collections.refetch()} />}
      {collections.isSuccess && rows.length === 0 && (
        <EmptyState
          title="No collections yet"
          hint="Add an ERC-721 or ERC-1155 contract on Ethereum or Polygon: Ludis indexes its transfers for the web3 graphs."
        />
      )}
      {rows.length > 0 && (
        <Table.ScrollContainer minWidth={900}>
          <Table striped highlightOnHover aria-label="Collections">
            <Table.Thead>
              <Table.Tr>
                {COLUMNS.map((c) => (
                  <Table.Th key={c}>{c}</Table.Th>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((c) => (
                <Table.Tr key={c.id}>
                  <Table.Td>
                    <Text fw={500} size="sm">
                      {c.name || '–'}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <CollectionStatusIcon collection={c} />
                  </Table.Td>
                  <Table.Td>
                    <CollectionSymbol symbol={c.symbol} />
                  </Table.Td>
                  <Table.Td>
                    <ContractAddress address={c.contract_address} />
                  </Table.Td>
                  <Table.Td>
                    <Badge variant="light" color="gray" style={{ overflow: 'visible' }} miw="max-content">
                      {c.contract_type}
                    </Badge>
                  </Table.Td>
                  <Table.Td>{c.chain}</Table.Td>
                  <Table.Td>
                    <Anchor component={Link} to={paths.crypto.getHref(c.gcp_slug)} size="sm" aria-label={`Graphs of ${c.gcp_slug}`}>
                      {c.gcp_slug}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{dateTime(c.created_date)}</Table.Td>
                  <Table.Td>{c.transfers.toLocaleString('en-US')}</Table.Td>
                  <Table.Td>{c.holders.toLocaleString('en-US')}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
      {pages > 1 && (
        <Box component="nav" aria-label="Collection pages">
          <Pagination total={pages} value={page} onChange={setPage} />
        </Box>
      )}
    </Stack>
  );
}
