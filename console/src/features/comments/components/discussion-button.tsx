import { Button, type ButtonProps, Drawer } from '@mantine/core';
import { IconMessages } from '@tabler/icons-react';
import { useState } from 'react';

import { CommentsPanel } from '@/features/comments/components/comments-panel';

/**
 * 'Discussion' on an asset's page (spec 001 §2: a discussion side panel): opens the conversation
 * in a drawer on the right. The conversation is asked for (and polled) only while it is open.
 */
export function DiscussionButton({ referenceId, size }: { referenceId: string; size?: ButtonProps['size'] }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size={size} variant="default" leftSection={<IconMessages size={size === 'xs' ? 14 : 16} />} onClick={() => setOpen(true)}>
        Discussion
      </Button>
      <Drawer
        opened={open}
        onClose={() => setOpen(false)}
        position="right"
        title="Discussion"
        size={420}
        closeButtonProps={{ 'aria-label': 'Close the discussion' }}
      >
        {open && <CommentsPanel referenceId={referenceId} />}
      </Drawer>
    </>
  );
}
