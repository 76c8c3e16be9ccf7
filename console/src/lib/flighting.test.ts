import { describe, expect, it } from 'vitest';

import type { Flighting } from '@/lib/api/types';
import { isFeatureEnabled, isPinnedAreaVisible } from '@/lib/flighting';

const off: Flighting = { key: 'insights', name: 'Insights', active: false, user_roles: ['developer'] };
const devOnly: Flighting = { key: 'insights', name: 'Insights', active: true, user_roles: ['developer'] };

describe('flighting rule', () => {
  it.each([
    ['active and listing the role', [devOnly], 'developer', true],
    ['active, role not listed', [devOnly], 'management', false],
    ['inactive', [off], 'developer', false],
    ['no flag for the feature', [], 'developer', true],
    ['superadmin, inactive flag', [off], 'superadmin', true],
    ['flags not loaded', undefined, 'developer', false],
  ] as const)('%s → %s', (_l, flags, role, expected) => {
    expect(isFeatureEnabled(flags as Flighting[] | undefined, 'insights', role)).toBe(expected);
  });

  it('pinned insights hide only when the insights flag exists and excludes the role', () => {
    expect(isPinnedAreaVisible([], 'developer')).toBe(true);
    expect(isPinnedAreaVisible([devOnly], 'developer')).toBe(true);
    expect(isPinnedAreaVisible([devOnly], 'management')).toBe(false);
  });
});
