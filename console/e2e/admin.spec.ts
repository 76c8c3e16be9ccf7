import { type APIRequestContext, expect, type Page, test } from '@playwright/test';

import { apiLogin, screenshots, signIn } from './session';

/**
 * The admin portal against the running API (issue 16 items 3, 8, 9): a new organization whose
 * member signs in and works is counted at once — in the Organizations tile, the Logins chart and
 * the User activities — the Logins tile is the chart's total, Active users never exceed Total users,
 * every activity row says what was acted on, and the superadmin's All Apps names each insight's
 * organization. At a laptop's and a phone's size.
 */

const adminEmail = process.env.LUDIS_E2E_ADMIN_EMAIL ?? 'admin@ludis.local';
const adminPassword = process.env.LUDIS_E2E_ADMIN_PASSWORD ?? '';
const stamp = Date.now().toString(36);
const orgName = `Metrics ${stamp}`;
const memberEmail = `mia-${stamp}@example.com`;
const memberPassword = 'Member-pass-1';
const kept = `Q3 sales ${stamp}`;
const dropped = `Draft ${stamp}`;
const colleagueEmail = `noah-${stamp}@example.com`;
let organizationId = '';

async function call(request: APIRequestContext, token: string, method: 'POST' | 'DELETE', url: string, data?: object) {
  const res = await request.fetch(url, { method, data, headers: { authorization: `Bearer ${token}` } });
  expect(res.ok(), `${method} ${url}: ${await res.text()}`).toBe(true);
  return res.json();
}

/** A tile's number. */
async function tile(page: Page, label: string) {
  const text = await page.getByRole('list', { name: 'Totals' }).getByRole('listitem', { name: label, exact: true }).innerText();
  return Number(text.replace(/\D+/g, ' ').trim().split(' ').at(-1));
}

test.describe.serial('the admin portal', () => {
  test.skip(!adminPassword, 'set LUDIS_E2E_ADMIN_PASSWORD to the seeded superadmin password');

  test('a new organization works: its administrator signs in, creates two insights and deletes one', async ({ request }) => {
    const root = await apiLogin(request, adminEmail, adminPassword);
    const created = await call(request, root.token, 'POST', '/v1/organizations', {
      organization: { name: orgName, admin_email: memberEmail, tier: 'paid', max_seats: 5 },
    });
    organizationId = String(created.organization.id);
    await call(request, root.token, 'POST', '/v1/users', {
      user: { email: memberEmail, password: memberPassword, first_name: 'Mia', last_name: 'Metrics', role: 'administrator', timezone: 'UTC', organization: created.organization.id },
    });
    const member = await apiLogin(request, memberEmail, memberPassword);
    for (const name of [kept, dropped]) {
      await call(request, member.token, 'POST', '/v1/applications', {
        application: { name, description: 'Quarterly numbers', app_type: 'application', app_url: 'https://dash.example/q3' },
      });
    }
    const list = await (await request.get('/v1/applications/insights?filter=owned', { headers: { authorization: `Bearer ${member.token}` } })).json();
    const draft = (list.applications as { id: string; name: string }[]).find((a) => a.name === dropped);
    await call(request, member.token, 'DELETE', `/v1/applications/${draft?.id}`);
  });

  for (const [width, height, size] of [[1366, 900, 'laptop'], [390, 844, 'phone']] as const) {
    test(`the superadmin's figures agree and name what they count (${size})`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      const screen = screenshots(`admin-${size}`);
      await signIn(page, adminEmail, adminPassword);
      await page.goto('/admin-portal');
      await expect(page.getByRole('heading', { name: 'Admin portal' })).toBeVisible();
      const totals = page.getByRole('list', { name: 'Totals' });
      await expect(totals.getByRole('listitem', { name: 'Organizations', exact: true })).toBeVisible();
      expect(await tile(page, 'Active users')).toBeLessThanOrEqual(await tile(page, 'Total users'));
      // The Logins tile is the chart's total, and the new organization is in the chart.
      const logins = await tile(page, 'Logins');
      await expect(page.getByText(new RegExp(`^Total: ${logins} logins?\\b`))).toBeVisible();
      const chart = page.getByTestId('logins-chart');
      await expect(chart.getByText(orgName).or(page.getByText(new RegExp(`^Other organizations: .*${orgName}`)))).toBeVisible();
      await expect(page.getByText('(deleted)')).toHaveCount(0);
      await totals.getByRole('button', { name: 'What Active users counts' }).hover();
      await expect(page.getByRole('tooltip')).toContainText('never more than Total users');
      await screen(page, 'overview');

      await page.getByRole('tab', { name: 'User activities' }).click();
      const rows = page.getByRole('table', { name: 'Activity' });
      await expect(rows.getByRole('row').filter({ hasText: `Mia Metrics deleted insight ${dropped}` })).toBeVisible();
      await expect(rows.getByRole('row').filter({ hasText: `Mia Metrics created insight ${kept}` })).toBeVisible();
      await expect(rows.getByRole('row').filter({ hasText: `created organization ${orgName}` })).toBeVisible();
      // Nothing to scroll sideways for: the sentence and the date fit the screen.
      const box = await rows.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? Infinity)).toBeLessThanOrEqual(width);
      await screen(page, 'user-activities');

      await page.goto('/insights');
      const card = page.getByRole('article', { name: kept });
      await expect(card.getByText(orgName)).toBeVisible();
      await screen(page, 'all-apps');
    });
  }

  test("the organization's administrator moves her insights to a colleague ('Migrate entities')", async ({ page, request }) => {
    const screen = screenshots('admin-migrate');
    const root = await apiLogin(request, adminEmail, adminPassword);
    await call(request, root.token, 'POST', '/v1/users', {
      user: { email: colleagueEmail, password: memberPassword, first_name: 'Noah', last_name: 'Newman', role: 'developer', timezone: 'UTC', organization: organizationId },
    });
    await signIn(page, memberEmail, memberPassword);
    await page.goto(`/organizations/${organizationId}/users`);
    await page.getByRole('button', { name: `Migrate entities of ${memberEmail}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Migrate entities' });
    await dialog.getByRole('button', { name: 'Migrate' }).click();
    await expect(dialog.getByRole('alert')).toHaveText('Please fill in all fields');
    await dialog.getByRole('combobox', { name: 'Entity type' }).click();
    await page.getByRole('option', { name: 'Insights and apps' }).click();
    await dialog.getByRole('combobox', { name: 'Destination user' }).fill('noah');
    const noah = page.getByRole('option', { name: `Noah Newman (${colleagueEmail})` });
    await noah.click();
    await expect(dialog.getByRole('combobox', { name: 'Destination user' })).toHaveValue(`Noah Newman (${colleagueEmail})`);
    await screen(page, 'form');
    await dialog.getByRole('button', { name: 'Migrate' }).click();
    await expect(page.getByText('1 insight moved to Noah Newman')).toBeVisible();
    await expect(dialog).toBeHidden();
    // Noah owns it now.
    const colleague = await apiLogin(request, colleagueEmail, memberPassword);
    const owned = await (await request.get('/v1/applications/insights?filter=owned', { headers: { authorization: `Bearer ${colleague.token}` } })).json();
    expect((owned.applications as { name: string }[]).map((a) => a.name)).toContain(kept);
  });
});
