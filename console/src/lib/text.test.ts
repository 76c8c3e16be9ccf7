import { describe, expect, it } from 'vitest';

import { INSIGHT_DESCRIPTION_MAX, INSIGHT_NAME_MAX } from '@/config/constants';
import { relativeTime } from '@/lib/relative-time';
import { truncate, viewCountLabel } from '@/lib/text';

describe('truncate', () => {
  it('keeps text that fits and cuts longer text, ending it with ...', () => {
    expect(INSIGHT_NAME_MAX).toBe(22);
    expect(INSIGHT_DESCRIPTION_MAX).toBe(25);
    expect(truncate('a'.repeat(22), 22)).toBe('a'.repeat(22));
    expect(truncate('a'.repeat(23), 22)).toBe(`${'a'.repeat(22)}...`);
    expect(truncate('Quarterly sales by region and channel', 25)).toBe('Quarterly sales by region...');
    expect(truncate(null, 25)).toBe('');
  });
});

describe('viewCountLabel', () => {
  it('is singular for one view only', () => {
    expect(viewCountLabel(1)).toBe('1 View');
    expect(viewCountLabel(0)).toBe('0 Views');
    expect(viewCountLabel(2)).toBe('2 Views');
    expect(viewCountLabel(undefined)).toBe('0 Views');
  });
});

describe('relativeTime', () => {
  const now = new Date(2026, 10, 20, 15, 0, 0); // Friday 20 Nov 2026, 3 pm local
  const at = (d: Date) => d.getTime() / 1000;
  it("says 'hh:mm A Today', 'hh:mm A Yesterday', 'Last weekday', then the date", () => {
    expect(relativeTime(at(new Date(2026, 10, 20, 9, 5)), now)).toBe('09:05 AM Today');
    expect(relativeTime(at(new Date(2026, 10, 19, 13, 30)), now)).toBe('01:30 PM Yesterday');
    expect(relativeTime(at(new Date(2026, 10, 16, 8, 0)), now)).toBe('Last Monday');
    expect(relativeTime(at(new Date(2026, 10, 2, 8, 0)), now)).toBe('11/02/26');
  });
});
