import { describe, expect, it } from 'vitest';

import { INSIGHT_DESCRIPTION_MAX, INSIGHT_NAME_MAX } from '@/config/constants';
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
