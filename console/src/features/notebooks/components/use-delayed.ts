import { useEffect, useState } from 'react';

/**
 * `value`, but only `delayMs` after it last changed (null at once while it is null): the notebook
 * frames appear 5 s after their call succeeded (spec 001 §9 "Notebook iframe delay 5 s"), with a
 * loader meanwhile. A new value starts the wait again.
 */
export function useDelayed<T>(value: T | null, delayMs: number): T | null {
  const [shown, setShown] = useState<T | null>(null);
  // A new value hides the old one at once (adjusted while rendering, not in an effect).
  const [before, setBefore] = useState(value);
  if (value !== before) {
    setBefore(value);
    setShown(null);
  }

  useEffect(() => {
    if (value === null) return;
    const timer = window.setTimeout(() => setShown(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);

  return shown;
}
