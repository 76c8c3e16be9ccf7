import { ActionIcon, Code, CopyButton, Group, Tooltip } from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';

/** Characters kept at each end of a shortened address: `0x5fbd…0aa3`. */
const HEAD = 6;
const TAIL = 4;

/** `0x5fbdb2…` shortened to its first 6 and last 4 characters; a short text is left whole. */
export function shortAddress(address: string): string {
  return address.length > HEAD + TAIL + 2 ? `${address.slice(0, HEAD)}…${address.slice(-TAIL)}` : address;
}

/**
 * A contract address as block explorers show it in lists: shortened, the whole address in a
 * tooltip and in its accessible name, and a button that copies it.
 */
export function ContractAddress({ address }: { address: string }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Tooltip label={address} withArrow ff="monospace">
        <Code tabIndex={0} aria-label={`Contract address ${address}`} style={{ whiteSpace: 'nowrap' }}>
          {shortAddress(address)}
        </Code>
      </Tooltip>
      <CopyButton value={address} timeout={1500}>
        {({ copied, copy }) => (
          <Tooltip label={copied ? 'Copied' : 'Copy the address'} withArrow>
            <ActionIcon variant="subtle" color={copied ? 'teal' : 'gray'} size="sm" onClick={copy} aria-label={`Copy ${address}`}>
              {copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
            </ActionIcon>
          </Tooltip>
        )}
      </CopyButton>
    </Group>
  );
}
