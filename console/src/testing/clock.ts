import { act } from '@testing-library/react';
import { setTimeout as realTimeout } from 'node:timers/promises';
import { vi } from 'vitest';

/**
 * A fake clock that moves only when the test moves it. Install it before rendering, so every timer
 * the page sets (debounces, polls, toasts, TanStack Query's notifications) is on it; leave it with
 * `vi.useRealTimers()` (setup-tests does that after each test too). Never `shouldAdvanceTime`: a
 * clock that also follows real time makes the outcome depend on how busy the machine is.
 */
export function installManualClock() {
  vi.useFakeTimers();
}

/** Moves the fake clock forward by `ms`, running the timers that fall due, inside act(). */
export async function advance(ms: number) {
  await act(() => vi.advanceTimersByTimeAsync(ms));
}

/**
 * Waits until `check` passes while the fake clock stands still: only promises, real I/O and timers
 * already due run in between, so no timer can fire early because the machine was slow. Gives up
 * (rethrowing the check's error) after `attempts` rounds of 10 ms of real time.
 */
export async function settle(check: () => void, attempts = 500) {
  for (let round = 0; ; round += 1) {
    await advance(0);
    try {
      check();
      return;
    } catch (error) {
      if (round >= attempts) throw error;
    }
    await realTimeout(10);
  }
}
