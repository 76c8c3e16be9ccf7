import { ActionIcon, type ActionIconProps, Button, type ButtonProps, Tooltip } from '@mantine/core';
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

/** An icon button that says in a tooltip why it may not be used (`blocked`), else its `label`. */
export function GatedActionIcon({
  blocked,
  label,
  onClick,
  children,
  ...props
}: ActionIconProps & { blocked?: string | null; label: string; onClick: () => void; children: ReactNode }) {
  return (
    <Tooltip label={blocked ?? label}>
      <ActionIcon
        {...props}
        aria-label={label}
        {...(blocked ? { 'data-disabled': true, 'aria-disabled': 'true' as const } : {})}
        onClick={(e) => {
          e.stopPropagation();
          if (!blocked) onClick();
        }}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}
