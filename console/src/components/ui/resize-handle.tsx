import { Box } from '@mantine/core';
import { type KeyboardEvent, type PointerEvent, useRef } from 'react';

export type WidthLimits = { initial: number; min: number; max: number };

/** `width` kept within the limits. */
export function clampWidth(width: number, limits: Pick<WidthLimits, 'min' | 'max'>): number {
  return Math.min(limits.max, Math.max(limits.min, Math.round(width)));
}

const KEY_STEP = 10;

/**
 * A vertical splitter that resizes the panel beside it: drag it, or focus it and use the arrow
 * keys (Home/End for the limits). `side` says where the panel is: a panel on the left grows when
 * the handle moves right, one on the right when it moves left.
 */
export function ResizeHandle({
  label,
  width,
  limits,
  side,
  onResize,
}: {
  label: string;
  width: number;
  limits: WidthLimits;
  side: 'left' | 'right';
  onResize: (width: number) => void;
}) {
  const drag = useRef<{ x: number; width: number } | null>(null);
  const sign = side === 'left' ? 1 : -1;

  function onPointerDown(e: PointerEvent<HTMLDivElement>) {
    drag.current = { x: e.clientX, width };
    e.currentTarget.setPointerCapture?.(e.pointerId);
  }
  function onPointerMove(e: PointerEvent<HTMLDivElement>) {
    if (!drag.current) return;
    onResize(clampWidth(drag.current.width + sign * (e.clientX - drag.current.x), limits));
  }
  function onPointerUp(e: PointerEvent<HTMLDivElement>) {
    drag.current = null;
    e.currentTarget.releasePointerCapture?.(e.pointerId);
  }
  function onKeyDown(e: KeyboardEvent<HTMLDivElement>) {
    const keys: Record<string, number> = {
      ArrowLeft: width - sign * KEY_STEP,
      ArrowRight: width + sign * KEY_STEP,
      Home: limits.min,
      End: limits.max,
    };
    if (!(e.key in keys)) return;
    e.preventDefault();
    onResize(clampWidth(keys[e.key], limits));
  }

  return (
    <Box
      role="separator"
      tabIndex={0}
      aria-label={label}
      aria-orientation="vertical"
      aria-valuenow={width}
      aria-valuemin={limits.min}
      aria-valuemax={limits.max}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onKeyDown={onKeyDown}
      mx={2}
      style={{ width: 3, flex: '0 0 3px', cursor: 'col-resize', background: 'var(--mantine-color-default-border)', borderRadius: 2, touchAction: 'none' }}
    />
  );
}
