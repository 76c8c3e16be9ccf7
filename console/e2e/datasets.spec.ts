import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { type APIRequestContext, type BrowserContext, expect, type Locator, type Page, test } from '@playwright/test';

import { apiLogin, screenshots, signIn } from './session';
import { tinyXlsx } from './xlsx';

/**
 * Datasets end to end, against the running API and its object storage (issue 6): an owner
 * imports a dataset with a CSV, a JSON and an XLSX file (the progress dialog ends with 'Data
 * Uploaded Successfully!'), previews them, makes a folder, downloads a file (the browser's
 * download), reads the access URLs, and shares the dataset with a colleague as Viewer: the
 * colleague finds it under 'Shared with me' read-only (upload, new folder and delete say 'You need
 * edit access'; no download, delete or access URL on the files). The owner then deletes a file
 * ('File(s) Deleted!') and the dataset ('Dataset Deleted!').
 *
 * Files go straight between the browser and object storage on presigned addresses, so the
 * storage must answer CORS for the console's origin (the bucket's CORS rule in production; the
 * development S3 server `dev/tools/s3-server` does). If a preflight to the storage is refused,
 * the spec routes the presigned requests through Playwright (which answers preflights and adds
 * the CORS headers) and says so in an annotation: the console's code path stays the same.
 */
const adminEmail = process.env.LUDIS_E2E_ADMIN_EMAIL ?? 'admin@ludis.local';
const adminPassword = process.env.LUDIS_E2E_ADMIN_PASSWORD ?? '';
const stamp = Date.now();
const owner = { email: `e2e-ds-owner-${stamp}@example.com`, password: 'owner-pass-1', first: 'Dana', last: 'Owner' };
const colleague = { email: `e2e-ds-colleague-${stamp}@example.com`, password: 'colleague-pass-1', first: 'Cole', last: 'Viewer' };
const datasetName = `Sales ${stamp}`;

const dir = mkdtempSync(join(tmpdir(), 'ludis-e2e-datasets-'));
const csv = 'region,total\nnorth,3\nsouth,4\n';
const json = JSON.stringify([
  { city: 'Oslo', visits: 12 },
  { city: 'Lima', visits: 7 },
]);
const files = {
  csv: join(dir, 'sales.csv'),
  json: join(dir, 'visits.json'),
  xlsx: join(dir, 'budget.xlsx'),
  pdf: join(dir, 'slides.pdf'),
};
writeFileSync(files.csv, csv);
writeFileSync(files.json, json);
writeFileSync(
  files.xlsx,
  tinyXlsx('Quarter 1', [
    ['department', 'budget'],
    ['research', '120'],
    ['sales', '80'],
  ]),
);
writeFileSync(files.pdf, '%PDF-1.4\n');

let datasetUrl = '';
/** Set when the storage refuses browsers' preflights and Playwright must answer them. */
let routeStorage = false;
const screen = screenshots('datasets');

/** Presigned storage requests through Playwright, which answers the preflight and adds CORS headers. */
async function allowStorage(context: BrowserContext) {
  if (!routeStorage) return;
  await context.route(
    (url) => url.searchParams.has('X-Amz-Signature'),
    async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response });
    },
  );
}

/** Does the storage answer a browser's preflight for a presigned upload from the console's origin? */
async function storageSpeaksCors(request: APIRequestContext, token: string, origin: string) {
  const headers = { Authorization: `Bearer ${token}` };
  const created = await request.post('/v1/datasets/createdataset', { headers, data: { dataset: { name: `CORS probe ${stamp}`, description: '' } } });
  expect(created.ok(), await created.text()).toBe(true);
  const id = ((await created.json()) as { dataset: { id: string } }).dataset.id;
  try {
    const signed = await request.post(`/v1/datasets/getpresignedurl/${id}`, { headers, data: { path: 'probe.csv', method: 'PUT' } });
    expect(signed.ok(), await signed.text()).toBe(true);
    const { url } = (await signed.json()) as { url: string };
    const preflight = await request.fetch(url, {
      method: 'OPTIONS',
      headers: { Origin: origin, 'Access-Control-Request-Method': 'PUT', 'Access-Control-Request-Headers': 'content-type' },
    });
    const allowed = preflight.headers()['access-control-allow-origin'];
    return preflight.status() < 300 && (allowed === '*' || allowed === origin);
  } finally {
    await request.delete(`/v1/datasets/${id}`, { headers });
  }
}

function fileRow(page: Page, name: string): Locator {
  return page.getByRole('table', { name: 'Files and folders' }).getByRole('row', { name: new RegExp(`\\b${name.replace(/\./g, '\\.')}\\b`) });
}

function datasetRow(page: Page, name: string): Locator {
  return page.locator(`[data-testid="dataset-row"][data-name="${name}"]`);
}

test.describe.serial('datasets', () => {
  test.skip(!adminPassword, 'set LUDIS_E2E_ADMIN_PASSWORD to the seeded superadmin password');

  test.beforeAll(async ({ request, baseURL }) => {
    const { token } = await apiLogin(request, adminEmail, adminPassword);
    const headers = { Authorization: `Bearer ${token}` };
    const orgs = await request.get('/v1/organizations/list?page=1&limit=100', { headers });
    expect(orgs.ok()).toBe(true);
    const demo = ((await orgs.json()) as { organizations: { id: string; name: string }[] }).organizations.find((o) => o.name === 'Demo');
    expect(demo, 'the seeded Demo organization').toBeTruthy();
    for (const u of [owner, colleague]) {
      const res = await request.post('/v1/users', {
        headers,
        data: { user: { email: u.email, password: u.password, first_name: u.first, last_name: u.last, role: 'developer', timezone: 'UTC', organization: demo!.id } },
      });
      expect(res.ok(), await res.text()).toBe(true);
    }
    const ownerToken = (await apiLogin(request, owner.email, owner.password)).token;
    routeStorage = !(await storageSpeaksCors(request, ownerToken, new URL(baseURL ?? 'http://127.0.0.1:8080').origin));
  });

  test.beforeEach(async ({ context }) => {
    if (routeStorage) test.info().annotations.push({ type: 'note', description: 'the object storage answers no CORS: Playwright answers the preflights' });
    await allowStorage(context);
  });

  test('the owner imports a dataset with three files, previews them, makes a folder and downloads a file', async ({ page, context, request }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Datasets' }).click();
    await expect(page).toHaveURL(/\/datasets$/);
    await expect(page.getByRole('heading', { name: 'Datasets' })).toBeVisible();
    await page.getByRole('tab', { name: 'Created by me' }).click();
    await expect(page.getByText('You have not created any datasets yet')).toBeVisible();
    await page.getByRole('tab', { name: 'Samples' }).click();
    await screen(page, 'list');

    // The import form: name required, only the six types accepted.
    await page.getByRole('link', { name: 'Import dataset' }).click();
    await expect(page).toHaveURL(/\/datasets\/new$/);
    await page.getByRole('button', { name: 'Create dataset' }).click();
    await expect(page.getByText('Empty name not allowed')).toBeVisible();
    await page.getByRole('textbox', { name: /^Name/ }).fill(datasetName);
    await page.getByRole('textbox', { name: /^Description/ }).fill('Made by the end-to-end test');
    await page.getByLabel('Files', { exact: true }).setInputFiles([files.csv, files.json, files.xlsx, files.pdf]);
    await expect(page.getByText('Not accepted: slides.pdf')).toBeVisible();
    const toUpload = page.getByRole('table', { name: 'Files to upload' });
    for (const name of ['sales.csv', 'visits.json', 'budget.xlsx']) await expect(toUpload.getByText(name)).toBeVisible();
    await expect(toUpload.getByText('slides.pdf')).toHaveCount(0);
    await screen(page, 'import-form');

    // Hold the uploads until the progress dialog has been checked (and photographed) mid-way.
    let release: () => void = () => undefined;
    const held = new Promise<void>((r) => (release = r));
    const slow = (url: URL) => url.searchParams.has('X-Amz-Signature');
    await page.route(slow, async (route) => {
      await held;
      await route.fallback();
    });
    await page.getByRole('button', { name: 'Create dataset' }).click();
    const progress = page.getByRole('dialog', { name: 'Uploading files' });
    await expect(progress).toBeVisible();
    await expect(progress.getByRole('listitem')).toHaveCount(3);
    await expect(progress.getByRole('button', { name: 'Cancel' })).toBeVisible();
    await screen(page, 'upload-progress');
    release();
    await expect(page.getByText('Data Uploaded Successfully!').first()).toBeVisible();
    await expect(progress).toBeHidden();
    await page.unroute(slow);
    await expect(page).toHaveURL(/\/datasets\/[^/]+$/);
    datasetUrl = new URL(page.url()).pathname;
    await expect(page.getByRole('heading', { name: datasetName })).toBeVisible();
    // The API measures the files in the background; the page reads the numbers again.
    await expect(page.getByText(/^3 files · /)).toBeVisible();
    await expect(page.getByTestId('dataset-ownership')).toHaveText(`Owner: ${owner.first} ${owner.last}`);
    for (const name of ['sales.csv', 'visits.json', 'budget.xlsx']) await expect(fileRow(page, name)).toBeVisible();
    await expect(fileRow(page, 'sales.csv')).toContainText(`${Buffer.byteLength(csv)} bytes`);
    await screen(page, 'dataset');

    // Previews: a CSV table, a JSON array of objects, and the first sheet of a workbook.
    await fileRow(page, 'sales.csv').getByRole('button', { name: 'Preview sales.csv' }).click();
    let dialog = page.getByRole('dialog', { name: 'Preview: sales.csv' });
    await expect(dialog.getByRole('table', { name: 'Preview of sales.csv' }).getByRole('columnheader', { name: 'region' })).toBeVisible();
    await expect(dialog.getByRole('cell', { name: 'south' })).toBeVisible();
    await screen(page, 'preview-csv');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await fileRow(page, 'visits.json').getByRole('button', { name: 'Preview visits.json' }).click();
    dialog = page.getByRole('dialog', { name: 'Preview: visits.json' });
    await expect(dialog.getByRole('columnheader', { name: 'city' })).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await fileRow(page, 'budget.xlsx').getByRole('button', { name: 'Preview budget.xlsx' }).click();
    dialog = page.getByRole('dialog', { name: 'Preview: budget.xlsx' });
    await expect(dialog.getByRole('columnheader', { name: 'department' })).toBeVisible();
    await expect(dialog.getByText('Quarter 1')).toBeVisible();
    await screen(page, 'preview-xlsx');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    // A folder; a name of blanks is ignored.
    await page.getByRole('button', { name: 'New folder' }).click();
    dialog = page.getByRole('dialog', { name: 'New folder' });
    await dialog.getByRole('textbox', { name: /Folder name/ }).pressSequentially('   ');
    await expect(dialog.getByRole('textbox', { name: /Folder name/ })).toHaveValue('');
    await dialog.getByRole('textbox', { name: /Folder name/ }).fill('raw data');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByText('Folder created')).toBeVisible();
    await expect(dialog).toBeHidden();
    await page.getByRole('table', { name: 'Files and folders' }).getByRole('link', { name: 'raw data' }).click();
    await expect(page).toHaveURL(/\?path=raw(%20|\+)data%2F$/);
    await expect(page.getByText('This folder is empty')).toBeVisible();
    await screen(page, 'folder');
    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: datasetName }).click();
    await expect(fileRow(page, 'sales.csv')).toBeVisible();

    // Download: the browser receives the file as it was uploaded.
    const downloading = page.waitForEvent('download');
    await fileRow(page, 'sales.csv').getByRole('button', { name: 'Download sales.csv' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toBe('sales.csv');
    expect(readFileSync(await download.path()).toString()).toBe(csv);
    await expect(page.getByText('Download complete').first()).toBeVisible();

    // Access URLs: the temporary one works without a key, the permanent one with the API key.
    await fileRow(page, 'sales.csv').getByRole('button', { name: 'Access URL for sales.csv' }).click();
    dialog = page.getByRole('dialog', { name: 'Access URL: sales.csv' });
    const temporary = await dialog.getByRole('textbox', { name: 'Temporary URL' }).inputValue();
    const permanent = await dialog.getByRole('textbox', { name: 'Permanent URL' }).inputValue();
    await dialog.getByRole('button', { name: 'Copy temporary url' }).click();
    await expect(dialog.getByRole('button', { name: 'Copied temporary url' })).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Copy temporary url' })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(temporary);
    await screen(page, 'access-url');
    await page.keyboard.press('Escape');
    expect((await (await request.get(temporary)).body()).toString()).toBe(csv);
    // The owner sees the link among the dataset's temporary links and revokes it: it stops at once.
    await page.getByRole('button', { name: 'Temporary links' }).click();
    const links = page.getByRole('table', { name: 'Temporary links' });
    await expect(links.getByTestId('dataset-link').first()).toContainText('sales.csv');
    await screen(page, 'temporary-links');
    // (Each opening of the dialog made a link: every one to sales.csv is revoked.)
    const revokeButtons = links.getByRole('button', { name: /^Revoke the link to sales\.csv/ });
    for (let left = await revokeButtons.count(); left > 0; left -= 1) {
      await revokeButtons.first().click();
      await expect(revokeButtons).toHaveCount(left - 1);
    }
    await expect(page.getByText('Link revoked').first()).toBeVisible();
    await expect(page.getByText(/No temporary links/)).toBeVisible();
    expect((await request.get(temporary)).status()).toBe(404);
    const login = await apiLogin(request, owner.email, owner.password);
    const key = await request.post(`/v1/users/${login.user.id}/api_key`, { headers: { Authorization: `Bearer ${login.token}` } });
    expect(key.ok(), await key.text()).toBe(true);
    const apiKey = ((await key.json()) as { api_key: string }).api_key;
    expect((await request.get(permanent, { maxRedirects: 0 })).status()).toBeGreaterThanOrEqual(400);
    const viaKey = await request.get(permanent, { headers: { 'x-api-key': apiKey } });
    expect(viaKey.ok()).toBe(true);
    expect((await viaKey.body()).toString()).toBe(csv);
  });

  test('shared as Viewer, the colleague sees it read-only', async ({ browser }) => {
    const ownerContext = await browser.newContext();
    await allowStorage(ownerContext);
    const ownerPage = await ownerContext.newPage();
    await signIn(ownerPage, owner.email, owner.password);
    await ownerPage.goto(datasetUrl);
    await ownerPage.getByRole('button', { name: 'Share' }).click();
    const dialog = ownerPage.getByRole('dialog', { name: 'Share' });
    await expect(dialog.getByText('People with access')).toBeVisible();
    // No 'Executor' for datasets.
    await expect(dialog.getByRole('combobox', { name: 'Access level' }).locator('option')).toHaveText(['Viewer', 'Editor']);
    await dialog.getByPlaceholder('Email, comma separated').fill(colleague.email);
    await dialog.getByRole('button', { name: 'add' }).click();
    await expect(ownerPage.getByText('Dataset shared!')).toBeVisible();
    await expect(dialog.getByRole('combobox', { name: `Access for ${colleague.email}` })).toHaveValue('view');
    await screen(ownerPage, 'share');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await ownerContext.close();

    const context = await browser.newContext();
    await allowStorage(context);
    const page = await context.newPage();
    await signIn(page, colleague.email, colleague.password);
    await page.goto('/datasets?filter=shared');
    const row = datasetRow(page, datasetName);
    await expect(row).toBeVisible();
    await expect(row).toContainText(`${owner.first} ${owner.last}`);
    await expect(row).toContainText('view');
    await expect(row.getByRole('button', { name: `Actions for ${datasetName}` })).toHaveCount(0);
    await screen(page, 'colleague-list');

    await row.getByRole('link', { name: datasetName }).click();
    await expect(page.getByTestId('dataset-ownership')).toHaveText(`Shared with you (view) by ${owner.first} ${owner.last}`);
    for (const name of ['Upload files', 'New folder', 'Delete']) {
      await expect(page.getByRole('button', { name, exact: true })).toBeDisabled();
    }
    await page.getByRole('button', { name: 'Upload files' }).hover();
    await expect(page.getByRole('tooltip')).toHaveText('You need edit access');
    const csvRow = fileRow(page, 'sales.csv');
    await expect(csvRow.getByRole('button', { name: 'Preview sales.csv' })).toBeVisible();
    await expect(csvRow.getByRole('button', { name: /Download|Access URL|Delete/ })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Edit' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Share' })).toHaveCount(0);
    await screen(page, 'colleague-read-only');

    // A viewer takes part in the dataset's discussion.
    await page.getByRole('button', { name: 'Discussion' }).click();
    const discussion = page.getByRole('dialog', { name: 'Discussion' });
    await expect(discussion.getByText('No comments yet. Start the discussion.')).toBeVisible();
    await discussion.getByRole('textbox', { name: 'Add a comment' }).fill('Does sales.csv include returns?');
    await discussion.getByRole('textbox', { name: 'Add a comment' }).press('Enter');
    const conversation = discussion.getByRole('list', { name: 'Conversation' });
    await expect(conversation.getByRole('listitem')).toHaveCount(1);
    await expect(conversation.getByRole('listitem')).toContainText(`${colleague.first} ${colleague.last}`);
    await expect(conversation.getByRole('listitem')).toContainText('Does sales.csv include returns?');
    await expect(discussion.getByRole('textbox', { name: 'Add a comment' })).toHaveValue('');
    await screen(page, 'colleague-discussion');
    await context.close();
  });

  test('the owner deletes a file, then the dataset', async ({ page }) => {
    await signIn(page, owner.email, owner.password);
    await page.goto(datasetUrl);
    await page.getByRole('checkbox', { name: 'Select visits.json' }).check();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    let confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await expect(confirm.getByText('Are you sure you want to delete the selected file(s)?')).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('File(s) Deleted!')).toBeVisible();
    await expect(fileRow(page, 'visits.json')).toHaveCount(0);
    await expect(fileRow(page, 'sales.csv')).toBeVisible();
    await screen(page, 'file-deleted');

    await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Datasets' }).click();
    const row = datasetRow(page, datasetName);
    await row.getByRole('button', { name: `Actions for ${datasetName}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await expect(confirm.getByText('Are you sure you want to delete this item?')).toBeVisible();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Dataset Deleted!')).toBeVisible();
    await expect(row).toHaveCount(0);
    await screen(page, 'dataset-deleted');
  });
});
