import { expect, test } from '@playwright/test';

/**
 * The silent refresh of spec 001 §8 against the real API. Needs an API started with a short
 * access-token lifetime; set LUDIS_E2E_ACCESS_TTL to it (seconds), e.g. LUDIS_ACCESS_TOKEN_TTL=3.
 */
const ttl = Number(process.env.LUDIS_E2E_ACCESS_TTL ?? 0);
const adminEmail = process.env.LUDIS_E2E_ADMIN_EMAIL ?? 'admin@ludis.local';
const adminPassword = process.env.LUDIS_E2E_ADMIN_PASSWORD ?? '';

test('an expired access token is refreshed silently and the call retried', async ({ page }) => {
  test.skip(!ttl || !adminPassword, 'set LUDIS_E2E_ACCESS_TTL (a short LUDIS_ACCESS_TOKEN_TTL of the API) and LUDIS_E2E_ADMIN_PASSWORD');
  await page.goto('/login');
  await page.getByLabel('Email').fill(adminEmail);
  await page.getByRole('textbox', { name: 'Password' }).fill(adminPassword);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
  const before = await page.evaluate(() => window.localStorage.getItem('token'));

  await page.waitForTimeout((ttl + 2) * 1000);
  const refreshes: number[] = [];
  page.on('response', (r) => {
    if (r.url().endsWith('/v1/auth/refreshtoken')) refreshes.push(r.status());
  });
  await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Admin' }).click();
  await expect(page.getByRole('list', { name: 'Totals' })).toBeVisible();
  await expect(page.getByText('jwt expired')).toHaveCount(0);
  // At least one refresh, and every one succeeded: on a busy machine the 3 s token can expire
  // again while the page loads, and a second refresh is then right too.
  expect(refreshes).toContain(200);
  expect(refreshes.filter((s) => s !== 200)).toEqual([]);
  const after = await page.evaluate(() => window.localStorage.getItem('token'));
  expect(after).not.toBe(before);
  await page.screenshot({ path: 'e2e-screenshots/90-after-silent-refresh.png', fullPage: true });
});
