import type { InsightView } from '@/lib/api/types';

let next = 0;

/** An insight as the API shows it (owned, editable, a running application unless patched). */
export function makeInsight(patch: Partial<InsightView> = {}): InsightView {
  next += 1;
  return {
    id: `app-${next}`,
    name: `Insight ${next}`,
    description: 'Quarterly',
    app_type: 'application',
    status: 'running',
    status_message: null,
    revision: null,
    size_id: null,
    always_on: false,
    idle: null,
    img_path: '/v1/images/defaults/insight-01.svg',
    img_url: '/v1/images/defaults/insight-01.svg',
    app_url: null,
    container_name: 'app-container',
    isLudis: true,
    template: null,
    is_template: false,
    language: 'python',
    userMetrics: 3,
    user_uid: 'u-1',
    user: { first_name: 'Ada', last_name: 'Lovelace' },
    pinned: false,
    access_level: 'edit',
    is_owner: true,
    managed: false,
    // The signed-in test user's organization (testing/session.ts).
    organization: { id: '7', name: 'Acme' },
    created_at: 1763700000,
    updated_at: 1763700000,
    ...patch,
  };
}

/** An insight someone else owns and shared with the caller at `level`. */
export function sharedInsight(level: InsightView['access_level'], patch: Partial<InsightView> = {}) {
  return makeInsight({ access_level: level, is_owner: false, user_uid: 'u-9', user: { first_name: 'Grace', last_name: 'Hopper' }, ...patch });
}
