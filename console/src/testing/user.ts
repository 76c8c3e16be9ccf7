import userEvent from '@testing-library/user-event';

/** user-event without the pause between keystrokes (the suite runs on two shared cores). */
export function user() {
  return userEvent.setup({ delay: null });
}

/**
 * The `performance.now()` of every `input` event on `element` from now on, so a test can say how
 * long after the last keystroke something happened without racing the clock.
 */
export function inputTimes(element: HTMLElement): number[] {
  const times: number[] = [];
  element.addEventListener('input', () => times.push(performance.now()));
  return times;
}
