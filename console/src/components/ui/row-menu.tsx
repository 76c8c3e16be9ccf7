import { ActionIcon, Menu } from '@mantine/core';
import { IconDots, IconPencil, IconShare, IconTrash } from '@tabler/icons-react';

/** A list row's Edit / Share / Delete menu (shown only to editors, spec 001 §6). */
export function RowMenu({ name, onEdit, onShare, onDelete }: { name: string; onEdit: () => void; onShare?: () => void; onDelete: () => void }) {
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" aria-label={`Actions for ${name}`}>
          <IconDots size={18} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={14} />} onClick={onEdit}>
          Edit
        </Menu.Item>
        {onShare && (
          <Menu.Item leftSection={<IconShare size={14} />} onClick={onShare}>
            Share
          </Menu.Item>
        )}
        <Menu.Item color="red" leftSection={<IconTrash size={14} />} onClick={onDelete}>
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
