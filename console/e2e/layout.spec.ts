import { type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';

import { screenshots } from './session';

/**
 * Layout on a phone and a laptop (issue 16 item 18): list filters in aligned rows, tabs on one
 * line, and row actions in view. The API is answered in the browser (page routes), so this spec
 * needs only a server for the built console (the API, or `vite preview`) and no data.
 */

const now = Math.floor(Date.now() / 1000);
const roles = ['developer', 'management', 'administrator', 'superadmin'];
const user = {
  uid: 'u-1', id: '1', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', role: 'superadmin', status: 'active',
  organization: '7', timezone: 'UTC', date_format: 'MM/DD/YY', has_git_token: true, enabled_2fa: false, confirmed_2fa: false,
  is_2fa_required: false, created_at: 0, updated_at: 0,
};
const flightings = ['insights', 'projects', 'workflows', 'datasets', 'notebooks'].map((key) => ({ key, name: key, active: true, user_roles: roles }));
const insight = (id: string, name: string) => ({
  id, name, description: 'Quarterly numbers', app_type: 'application', status: 'running', img_path: null, img_url: null, app_url: null,
  container_name: 'c', isLudis: true, template: null, is_template: false, language: 'python', userMetrics: 3, user_uid: 'u-1',
  user: { first_name: 'Ada', last_name: 'Lovelace' }, pinned: false, access_level: 'edit', is_owner: true, managed: false,
  organization: { id: '7', name: 'Acme' }, created_at: now, updated_at: now,
});
const dataset = {
  id: 'd1', name: 'Sales', description: 'Monthly sales', path: '', img_path: null, user_uid: 'u-1',
  user: { first_name: 'Ada', last_name: 'Lovelace', photo_path: { original: null } }, repo_author: 'ada@example.com', shareIcons: [],
  access_level: 'edit', is_owner: true, sample: false, managed: false, object_count: 2, bytes: 1512, deletion_policy: 'Retain', status: 'ready',
  created_at: now, updated_at: now,
};
const org = { id: '7', name: 'Acme', slug: 'acme', namespace: 'ns', admin_email: 'a@acme.io', description: '', tier: 'paid', max_seats: 10, is_2fa_required: false, created_at: 0, active_users: 1, flightings };

function answer(path: string): unknown {
  if (path === '/v1/flighting') return { success: true, flightings };
  if (path === '/v1/config') return { success: true, config: { supportEmail: 'help@ludis.test', documentationUrl: 'https://docs.test', roles, photoUpload: true } };
  if (path === '/v1/applications/pin/list') return { success: true, applications: [] };
  if (path === '/v1/applications/insights') return { success: true, applications: [insight('a1', 'Sales board'), insight('a2', 'Churn')], total: 2, page: 1, pageSize: 12, totalPages: 1 };
  if (path === '/v1/datasets/getdatasetdetails/d1') return { success: true, dataset };
  if (path === '/v1/datasets/listfiles/d1') {
    const at = new Date().toISOString();
    return { success: true, Name: 'b', Prefix: '', IsTruncated: false, KeyCount: 2, FileCount: 2, CommonPrefixes: [], Contents: [{ Key: 'a-file-with-a-rather-long-name.csv', Size: 1500, LastModified: at }, { Key: 'notes.txt', Size: 12, LastModified: at }] };
  }
  if (path === '/v1/organizations/list') return { success: true, organizations: [org], total: 1 };
  if (path === '/v1/organizations/activeUserCounts') return { success: true, counts: [{ id: '7', name: 'Acme', max_seats: 10, active_users: 1 }] };
  if (path === '/v1/metrics') {
    const metrics = { logins: 1, failedLogins: 0, activeUsers: 1, totalUsers: 1, organizations: 1, activities: 1 };
    const labels = ['Logins', 'Failed logins', 'Active users', 'Total users', 'Organizations', 'Activities'];
    const figures = Object.entries(metrics).map(([figure, value], i) => ({ figure, label: labels[i], value, definition: `What ${labels[i]} counts.` }));
    return { success: true, period: 'week', from: 0, to: 0, metrics: { ...metrics, byEntity: [{ entity: 'applications', count: 1 }] }, figures };
  }
  if (path === '/v1/metrics/numLogins') {
    const series = [{ key: '7', name: 'Acme', kind: 'organization', logins: 1, organizations: ['Acme'], organizationCount: 1 }];
    const logins = [{ date: new Date().toISOString().slice(0, 10), logins: 1, orgName: 'Acme', series: '7' }];
    return { success: true, period: 'week', from: 0, to: 0, total: 1, definition: 'Sign-ins.', series, logins };
  }
  return { success: true };
}

async function mockedApi(context: BrowserContext) {
  await context.addInitScript((u) => {
    localStorage.setItem('token', 'layout-token');
    localStorage.setItem('refresh_token', 'layout-refresh');
    localStorage.setItem('user', JSON.stringify(u));
  }, user);
  await context.route(/\/(v1|v2)\//, (route) => {
    const path = new URL(route.request().url()).pathname;
    return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(answer(path)) });
  });
}

const box = async (l: Locator) => {
  const b = await l.boundingBox();
  expect(b, 'visible').not.toBeNull();
  return b!;
};

async function tabsOnOneLine(page: Page, name: string) {
  const tabs = page.getByRole('tablist', { name }).getByRole('tab');
  const tops = await Promise.all((await tabs.all()).map(async (t) => Math.round((await box(t)).y)));
  expect(new Set(tops).size, `tabs of '${name}' on one line: ${tops.join(', ')}`).toBe(1);
}

for (const [width, height, label] of [[390, 844, 'phone'], [1366, 900, 'laptop']] as const) {
  test.describe(`layout on a ${label} (${width}×${height})`, () => {
    test.use({ viewport: { width, height } });
    const screen = screenshots(`layout-${label}`);

    test.beforeEach(async ({ context }) => mockedApi(context));

    test('insights: search, filter and sort in aligned rows; the screens on one line', async ({ page }) => {
      await page.goto('/insights');
      const search = await box(page.getByRole('textbox', { name: 'Search insights' }));
      const filter = await box(page.getByRole('combobox', { name: 'Filter' }));
      const sort = await box(page.getByRole('combobox', { name: 'Sort' }));
      // Filter and sort share a row, at the same height.
      expect(Math.round(filter.y)).toBe(Math.round(sort.y));
      expect(Math.round(filter.height)).toBe(Math.round(sort.height));
      if (label === 'phone') {
        // The search is its own full row; the two selects split the next one evenly, edges aligned.
        expect(Math.round(search.x)).toBe(Math.round(filter.x));
        expect(Math.round(search.x + search.width)).toBe(Math.round(sort.x + sort.width));
        expect(Math.abs(filter.width - sort.width)).toBeLessThanOrEqual(1);
      } else {
        expect(Math.round(search.y)).toBe(Math.round(filter.y));
      }
      await tabsOnOneLine(page, 'Insight screens');
      await screen(page, 'insights');
    });

    test('admin portal: its five tabs stay on one line', async ({ page }) => {
      await page.goto('/admin-portal');
      await expect(page.getByRole('heading', { name: 'Admin portal' })).toBeVisible();
      await tabsOnOneLine(page, 'Admin portal sections');
      await screen(page, 'admin-portal');
    });

    test("dataset page: every row's actions are in view without scrolling sideways", async ({ page }) => {
      await page.goto('/datasets/d1');
      for (const name of ['Delete notes.txt', 'Download notes.txt', 'Delete a-file-with-a-rather-long-name.csv']) {
        const b = await box(page.getByRole('button', { name }));
        expect(b.x + b.width, name).toBeLessThanOrEqual(width);
        expect(b.x, name).toBeGreaterThanOrEqual(0);
      }
      await screen(page, 'dataset');
    });
  });
}
