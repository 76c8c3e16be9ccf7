import { expect, test } from '@playwright/test';

import { apiLogin, screenshots, signIn } from './session';

/**
 * Template apps end to end (issue 17) on the organization's sample dataset 'Retail sales
 * (sample)': the four-step wizard makes a cluster app whose k-means the API computes over the
 * dataset's sales.csv; the summary and optimization templates render over the same file.
 */

const adminEmail = process.env.LUDIS_E2E_ADMIN_EMAIL ?? 'admin@ludis.local';
const adminPassword = process.env.LUDIS_E2E_ADMIN_PASSWORD ?? '';
const stamp = Date.now();
const analyst = { email: `e2e-tpl-${stamp}@example.com`, password: 'analyst-pass-1' };
const SAMPLE = 'Retail sales (sample)';
const screen = screenshots('templates');

test.describe.serial('template apps', () => {
  test.skip(!adminPassword, 'set LUDIS_E2E_ADMIN_PASSWORD to the seeded superadmin password');
  let token = '';
  let datasetId = '';

  test.beforeAll(async ({ request }) => {
    const root = await apiLogin(request, adminEmail, adminPassword);
    const headers = { Authorization: `Bearer ${root.token}` };
    const orgs = await request.get('/v1/organizations/list?page=1&limit=100', { headers });
    const demo = ((await orgs.json()) as { organizations: { id: string; name: string }[] }).organizations.find((o) => o.name === 'Demo');
    expect(demo, 'the seeded Demo organization').toBeTruthy();
    const res = await request.post('/v1/users', {
      headers,
      data: { user: { email: analyst.email, password: analyst.password, first_name: 'Ana', last_name: 'Lyst', role: 'developer', timezone: 'UTC', organization: demo!.id } },
    });
    expect(res.ok(), await res.text()).toBe(true);
    token = (await apiLogin(request, analyst.email, analyst.password)).token;
    // The samples are written when the organization is made or the API starts.
    await expect
      .poll(
        async () => {
          const list = await request.get(`/v1/datasets/listdatasets?filter=all&page=1&search=${encodeURIComponent('Retail sales')}`, {
            headers: { Authorization: `Bearer ${token}` },
          });
          // Its files are in storage from the start; its status follows the operator, which this group runs without.
          const found = ((await list.json()) as { datasets: { id: string; name: string }[] }).datasets.find((d) => d.name === SAMPLE);
          datasetId = found?.id ?? '';
          return datasetId;
        },
        { timeout: 60_000 },
      )
      .not.toBe('');
  });

  test('the wizard makes a cluster app over the sample dataset, and its clusters are computed', async ({ page }) => {
    await signIn(page, analyst.email, analyst.password);
    await page.goto('/insights');
    await page.getByRole('link', { name: 'From template' }).click();
    await expect(page.getByRole('heading', { name: 'New app from a template' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
    await expect(page.getByRole('status').filter({ hasText: 'Template App Type must be selected!' })).toBeVisible();
    await page.getByRole('radio', { name: 'Cluster' }).check();
    await screen(page, 'wizard-template');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('combobox', { name: 'Dataset' }).click();
    await page.getByRole('combobox', { name: 'Dataset' }).fill('Retail');
    await page.getByRole('option', { name: SAMPLE }).click();
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('textbox', { name: /App name/ }).fill(`Store segments ${stamp}`);
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByLabel('Review')).toContainText(`Dataset: ${SAMPLE}`);
    await screen(page, 'wizard-review');
    await page.getByRole('button', { name: 'Create', exact: true }).click();

    await expect(page).toHaveURL(/\/app\/[^/]+$/);
    await expect(page.getByText('Data: sales.csv')).toBeVisible();
    const clusters = page.getByRole('table', { name: 'Clusters' });
    await expect(clusters.getByRole('row')).toHaveCount(5);
    await expect(page.getByText(/159 rows clustered/)).toBeVisible();
    await expect(page.getByText('Rows 1–10 of 159')).toBeVisible();
    await screen(page, 'cluster');
    // Three clusters: the table follows.
    await page.getByRole('textbox', { name: 'Clusters' }).fill('3');
    await expect(clusters.getByRole('row')).toHaveCount(4);
    // kmeans3d: three columns in a 3D scatter drawn with WebGL.
    await page.getByLabel('Mode').getByText('3D', { exact: true }).click();
    const chart = page.getByRole('img', { name: /points in 3D$/ });
    await expect(chart).toBeVisible({ timeout: 30_000 });
    await expect(page.locator('[data-drawn="true"]')).toHaveCount(1);
    await expect(page.getByText('This browser cannot draw 3D charts')).toHaveCount(0);
    await expect(clusters.getByRole('row')).toHaveCount(4);
    await screen(page, 'cluster-3d');
  });

  for (const [template, name, check] of [
    ['slice-and-dice', 'Summary', 'Aggregation'],
    ['campaign', 'Campaign', 'Forecast'],
  ] as const) {
    test(`the ${template} template renders over the same file`, async ({ page, request }) => {
      const created = await request.post('/v2/applications/create', {
        headers: { Authorization: `Bearer ${token}` },
        data: { application: { name: `${name} ${stamp}`, description: '', template, dataset_ids: [datasetId] } },
      });
      expect(created.ok(), await created.text()).toBe(true);
      const id = ((await created.json()) as { application: { id: string } }).application.id;
      await signIn(page, analyst.email, analyst.password);
      await page.goto(`/app/${id}`);
      await expect(page.getByText('Data: sales.csv')).toBeVisible();
      if (template === 'slice-and-dice') {
        await page.getByRole('combobox', { name: check }).click();
        await page.getByRole('option', { name: 'sum' }).click();
        await expect(page.getByText(/^\d+ groups of date$/)).toBeVisible();
      } else {
        await expect(page.getByText(/Waiting: turn on Forecast/)).toBeVisible();
        await page.getByRole('switch', { name: check }).check();
        await expect(page.getByText(/^ETS\(/)).toBeVisible();
        await expect(page.getByText(/next value/)).toBeVisible();
      }
      await screen(page, template);
    });
  }
});
