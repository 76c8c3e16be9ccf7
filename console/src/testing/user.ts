import userEvent from '@testing-library/user-event';

/** user-event without the pause between keystrokes (the suite runs on two shared cores). */
export function user() {
  return userEvent.setup({ delay: null });
}
