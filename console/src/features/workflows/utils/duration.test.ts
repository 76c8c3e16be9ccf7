import { describe, expect, it } from 'vitest';

import { formatDuration } from '@/features/workflows/utils/duration';

describe('formatDuration', () => {
  it.each([
    [0, '0.00s'],
    [0.5, '0.50s'],
    [42.367, '42.37s'],
    [59.994, '59.99s'],
    [60, '1m 0s'],
    [61.9, '1m 1s'],
    [3599, '59m 59s'],
    [3600, '1h 0m 0s'],
    [3723, '1h 2m 3s'],
    [90061, '25h 1m 1s'],
  ])('%d s → %s', (s, text) => {
    expect(formatDuration(s)).toBe(text);
  });

  it.each([null, undefined, -1, Number.NaN])('%s → -', (s) => {
    expect(formatDuration(s)).toBe('-');
  });
});
