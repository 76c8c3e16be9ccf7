import { Accordion, Button, Loader, Table, Text } from '@mantine/core';
import { IconLink } from '@tabler/icons-react';
import { useState } from 'react';

import { QueryError } from '@/components/ui/query-error';
import { useLinks, useRevokeLink } from '@/features/datasets/api/links';
import { useDates } from '@/lib/dates';
import { notify } from '@/lib/notify';

/**
 * The dataset's temporary links (editors only): each file's 7-day address that needs no key, who
 * made it and until when, and Revoke (it stops working at once). Read when the section is opened.
 */
export function DatasetLinksPanel({ datasetId }: { datasetId: string }) {
  const [open, setOpen] = useState<string | null>(null);
  const links = useLinks(datasetId, open === 'links');
  const revoke = useRevokeLink(datasetId, { onSuccess: (m) => notify.success(m) });
  const dates = useDates();
  return (
    <Accordion variant="contained" value={open} onChange={setOpen} transitionDuration={0}>
      <Accordion.Item value="links">
        <Accordion.Control icon={<IconLink size={16} />}>Temporary links</Accordion.Control>
        <Accordion.Panel>
          {links.isPending && open === 'links' && <Loader size="sm" aria-label="Loading links" />}
          {links.isError && <QueryError error={links.error} onRetry={() => links.refetch()} />}
          {links.data && links.data.links.length === 0 && (
            <Text size="sm" c="dimmed">
              No temporary links. A file&rsquo;s Access URL makes one: anyone who has it may download the file for 7 days, until you revoke it here.
            </Text>
          )}
          {links.data && links.data.links.length > 0 && (
            <Table aria-label="Temporary links">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>File</Table.Th>
                  <Table.Th>Made by</Table.Th>
                  <Table.Th>Expires</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {links.data.links.map((l) => (
                  <Table.Tr key={l.id} data-testid="dataset-link">
                    <Table.Td>
                      <Text size="sm" ff="monospace">
                        {l.path}
                      </Text>
                    </Table.Td>
                    <Table.Td>{l.created_by ?? 'a former user'}</Table.Td>
                    <Table.Td>{dates.dateTime(l.expires_at)}</Table.Td>
                    <Table.Td>
                      <Button
                        size="compact-xs"
                        color="red"
                        variant="light"
                        loading={revoke.isPending && revoke.variables === l.id}
                        onClick={() => revoke.mutate(l.id)}
                        aria-label={`Revoke the link to ${l.path} made by ${l.created_by ?? 'a former user'}`}
                      >
                        Revoke
                      </Button>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}
