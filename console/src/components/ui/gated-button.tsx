import { Button, type ButtonProps, Tooltip } from '@mantine/core';
import type { ReactNode } from 'react';

/**
 * A button that stays visible when it may not be used: `blocked` names why (for example 'You
 * need edit access'); it is then aria-disabled, does nothing and says why in a tooltip. (A
 * `disabled` button gets no hover events, so it could not show the tooltip.)
 */
export function GatedButton({
  blocked,
  onClick,
  children,
  ...props
}: ButtonProps & { blocked?: string | null; onClick: () => void; children: ReactNode }) {
  if (!blocked) {
    return (
      <Button {...props} onClick={onClick}>
        {children}
      </Button>
    );
  }
  return (
    <Tooltip label={blocked}>
      <Button {...props} data-disabled aria-disabled="true" onClick={(e) => e.preventDefault()}>
        {children}
      </Button>
    </Tooltip>
  );
}
