import { describe, expect, it } from 'vitest';

import { anyChanging } from '@/features/insights/api/get-insights';
import { followInterval } from '@/features/insights/api/get-insight';
import { INSIGHT_CHECK_MS, PREVIEW_WATCH_MS } from '@/config/constants';
import type { InsightsPage } from '@/lib/api/types';
import { makeInsight } from '@/testing/insights';

const page = (...statuses: string[]): InsightsPage =>
  ({ success: true, applications: statuses.map((status) => makeInsight({ status: status as never })), page: 1, pageSize: 12, totalPages: 1 }) as InsightsPage;

describe('insights follow their apps', () => {
  it('the list looks again while a card starts or renders, and stops when none does', () => {
    expect(anyChanging([page('running', 'stopped'), page('starting')])).toBe(true);
    expect(anyChanging([page('rendering')])).toBe(true);
    expect(anyChanging([page('running', 'failed', 'stopped', 'external')])).toBe(false);
    expect(anyChanging(undefined)).toBe(false);
  });

  it("an app's page looks again soon while it starts, now and then while it runs or fails (its log fills in), never once it stopped", () => {
    expect(followInterval('starting')).toBe(INSIGHT_CHECK_MS);
    expect(followInterval('rendering')).toBe(INSIGHT_CHECK_MS);
    expect(followInterval('idle')).toBe(INSIGHT_CHECK_MS);
    expect(followInterval('running')).toBe(PREVIEW_WATCH_MS);
    expect(followInterval('failed')).toBe(PREVIEW_WATCH_MS);
    for (const s of ['stopped', 'external', undefined]) expect(followInterval(s)).toBe(false);
  });
});
