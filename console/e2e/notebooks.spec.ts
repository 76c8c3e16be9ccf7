import { expect, type FrameLocator, type Page, test } from '@playwright/test';

import { apiLogin, demoOrganization, enableForDevelopers, screenshots, signIn, toastSeen } from './session';

/**
 * Legacy projects and notebooks end to end, against the running API (issue 18,
 * docs/contracts/notebooks.md): an owner creates a legacy project over the organization's sample
 * dataset (through the git dialog, since no git token is saved yet), creates a notebook and
 * imports another from an .ipynb file, opens the first in JupyterLab (the frame appears and shows
 * JupyterLab's shell), types a cell and saves it there, commits it, previews it (the committed
 * cell in the sandboxed preview), renames it, deletes it, and deletes the project.
 *
 * The spec asks `GET /v1/projects` first and skips every test while that answers 404 (an API
 * without the legacy calls). JupyterLab runs in the API's cluster on a node that runs pods: those
 * steps run only with LUDIS_E2E_REAL_NODE=1; without it the commit is refused with 'Open the
 * notebook first' and the spec checks that instead.
 */
const realNode = process.env.LUDIS_E2E_REAL_NODE === '1';
const adminEmail = process.env.LUDIS_E2E_ADMIN_EMAIL ?? 'admin@ludis.local';
const adminPassword = process.env.LUDIS_E2E_ADMIN_PASSWORD ?? '';
const stamp = Date.now();
const owner = { email: `e2e-nbowner-${stamp}@example.com`, password: 'owner-pass-1', first: 'Nora', last: 'Books' };
const projectName = `Retail notebooks ${stamp}`;
const notebookName = `Store review ${stamp}`;
const renamed = `Store review final ${stamp}`;
const marker = `ludis-nb-${stamp}`;
const SAMPLE = 'Retail sales (sample)';
/** JupyterLab's image may have to be pulled on a fresh node. */
const RUN_TIMEOUT = 240_000;
const screen = screenshots('notebooks');

/** A one-cell notebook, as JupyterLab writes them. */
const IMPORTED = JSON.stringify({
  cells: [{ cell_type: 'markdown', metadata: {}, source: [`# Imported ${marker}`] }],
  metadata: { kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' } },
  nbformat: 4,
  nbformat_minor: 5,
});

/**
 * Types `code` into the notebook's last cell, runs it with Shift-Enter, and waits for `output`:
 * once the kernel is idle (the status bar says so), as a person would wait for it.
 */
async function runCell(lab: FrameLocator, code: string, output: string) {
  await expect(lab.locator('.jp-Notebook')).toBeVisible({ timeout: 60_000 });
  await expect(lab.getByText(/\| Idle$/)).toBeVisible({ timeout: 120_000 });
  const cell = lab.locator('.jp-Notebook .jp-Cell').last().locator('.cm-content');
  await cell.click();
  await cell.pressSequentially(code);
  await cell.press('Shift+Enter');
  await expect(lab.locator('.jp-OutputArea-output').filter({ hasText: output })).toBeVisible({ timeout: 60_000 });
}

async function openProject(page: Page) {
  await page.goto('/projects');
  await page.getByRole('link', { name: projectName, exact: true }).click();
  await expect(page.getByRole('heading', { name: projectName })).toBeVisible();
}

let apiHasNotebooks = true;

test.describe.serial('legacy projects and notebooks', () => {
  test.skip(!adminPassword, 'set LUDIS_E2E_ADMIN_PASSWORD to the seeded superadmin password');

  test.beforeAll(async ({ request }) => {
    const { token } = await apiLogin(request, adminEmail, adminPassword);
    const headers = { Authorization: `Bearer ${token}` };
    const probe = await request.get('/v1/projects?page=1&pageSize=1', { headers });
    apiHasNotebooks = probe.status() !== 404;
    if (!apiHasNotebooks) return;
    const demo = await demoOrganization(request, headers);
    await enableForDevelopers(request, headers, demo, ['notebooks', 'datasets']);
    const res = await request.post('/v1/users', {
      headers,
      data: { user: { email: owner.email, password: owner.password, first_name: owner.first, last_name: owner.last, role: 'developer', timezone: 'UTC', organization: demo } },
    });
    expect(res.ok(), await res.text()).toBe(true);
    // The samples are written when the organization is made or the API starts.
    const ownerToken = (await apiLogin(request, owner.email, owner.password)).token;
    await expect
      .poll(
        async () => {
          const list = await request.get(`/v1/datasets/listdatasets?filter=all&page=1&search=${encodeURIComponent('Retail sales')}`, {
            headers: { Authorization: `Bearer ${ownerToken}` },
          });
          return ((await list.json()) as { datasets: { name: string }[] }).datasets.some((d) => d.name === SAMPLE);
        },
        { timeout: 60_000 },
      )
      .toBe(true);
  });

  test.beforeEach(() => {
    test.skip(!apiHasNotebooks, 'the API has no legacy project calls yet: GET /v1/projects answers 404 (docs/contracts/notebooks.md)');
  });

  test('the owner creates a legacy project over the sample dataset', async ({ page }) => {
    await signIn(page, owner.email, owner.password);
    const nav = page.getByRole('navigation', { name: 'Main navigation' });
    await expect(nav.getByRole('link', { name: /Notebooks/ })).toContainText('Deprecated');
    await nav.getByRole('link', { name: /Notebooks/ }).click();
    await expect(page).toHaveURL(/\/projects$/);
    await expect(page.getByRole('tab', { name: 'My Projects' })).toBeVisible();
    await expect(page.getByRole('tab', { name: 'Shared With Me' })).toBeVisible();
    await screen(page, 'list-empty');

    // No git token yet: the git dialog first.
    await page.getByRole('button', { name: 'Create project' }).first().click();
    const git = page.getByRole('dialog', { name: 'Connect your git account' });
    await git.getByRole('textbox', { name: 'Git username' }).fill('nora');
    await git.getByLabel(/Personal access token/).fill(`token-${stamp}`);
    await git.getByRole('button', { name: 'Save and continue' }).click();
    await expect(page).toHaveURL(/\/projects\/new$/);

    await page.getByRole('textbox', { name: /^Name/ }).fill('retail_2024!');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect(page.getByText('Please enter valid project name. No special character allowed.')).toBeVisible();
    await expect(page.getByText('Description is required')).toBeVisible();
    await expect(page.getByText('Dataset is required')).toBeVisible();
    await page.getByRole('textbox', { name: /^Name/ }).fill(projectName);
    await page.getByRole('textbox', { name: /^Description/ }).fill('Weekly store sales, in notebooks');
    const dataset = page.getByLabel(/^Dataset/).first();
    await dataset.click();
    await dataset.fill('Retail');
    await page.getByRole('option', { name: SAMPLE }).click();
    // The picker stays open for more choices: close it so it does not cover the form's buttons.
    await page.keyboard.press('Escape');
    await expect(page.getByRole('option', { name: SAMPLE })).toBeHidden();
    await screen(page, 'create');
    await page.getByRole('button', { name: 'Create project' }).click();
    await expect(page.getByRole('heading', { name: projectName })).toBeVisible();
    await expect(page).toHaveURL(/\/projects\/[^/]+$/);
    await expect(page.getByRole('region', { name: 'Overview' })).toContainText('Nora Books');
    await expect(page.getByText('No notebooks yet')).toBeVisible();
    await screen(page, 'project');

    await page.goto('/projects');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: projectName, exact: true }) });
    await expect(row).toContainText('Nora Books');
    await expect(row.getByLabel('0 active notebooks')).toBeVisible();
    await screen(page, 'list');
  });

  test('creates a notebook, and imports one from an .ipynb file (highlighted on the project page)', async ({ page }) => {
    await signIn(page, owner.email, owner.password);
    await openProject(page);
    await page.getByRole('button', { name: 'Create file' }).click();
    await expect(page).toHaveURL(/\/add-notebooks\?project=/);
    await page.getByRole('button', { name: 'Create notebook' }).click();
    await expect(page.getByText('Empty notebook name not allowed.')).toBeVisible();
    await page.getByRole('textbox', { name: /^Notebook name/ }).fill(notebookName);
    await page.getByRole('textbox', { name: /^Description/ }).fill('Sales by store and week');
    await page.getByRole('button', { name: 'Create notebook' }).click();
    await toastSeen(page, 'Notebook created successfully!');
    await expect(page.getByRole('heading', { name: projectName })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Notebooks' }).getByRole('link', { name: notebookName, exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Import file' }).click();
    await page.getByText('An .ipynb file', { exact: true }).click();
    await expect(page.getByRole('radio', { name: 'An .ipynb file' })).toBeChecked();
    await page.locator('input[type=file]').setInputFiles({ name: `Imported ${stamp}.ipynb`, mimeType: 'application/x-ipynb+json', buffer: Buffer.from(IMPORTED) });
    await screen(page, 'import');
    await page.getByRole('button', { name: 'Import notebook' }).click();
    await expect(page.getByRole('heading', { name: projectName })).toBeVisible();
    const imported = page.getByRole('row').filter({ has: page.getByRole('link', { name: `Imported ${stamp}`, exact: true }) });
    await expect(imported).toHaveAttribute('data-highlighted', 'true');
    await expect(imported.getByText('New')).toBeVisible();
    await screen(page, 'imported');
  });

  test('opens the notebook: the JupyterLab frame, a saved cell, the dev port and the commit', async ({ page }) => {
    test.setTimeout(RUN_TIMEOUT + 120_000);
    await signIn(page, owner.email, owner.password);
    await openProject(page);
    await page.getByRole('table', { name: 'Notebooks' }).getByRole('link', { name: notebookName, exact: true }).click();
    await expect(page).toHaveURL(/\/notebooks\/[^/]+$/);
    await expect(page.getByRole('heading', { name: notebookName })).toBeVisible();

    if (!realNode) {
      // Without a node that runs JupyterLab, the commit is refused until the notebook is open.
      await page.getByRole('button', { name: 'Commit' }).click();
      const commit = page.getByRole('dialog', { name: 'Commit notebook' });
      await commit.getByRole('button', { name: 'Commit' }).click();
      await expect(commit.getByRole('alert')).toContainText('Open the notebook first');
      await screen(page, 'commit-not-open');
      return;
    }


    // Progress first, then the frame (5 s after JupyterLab runs).
    await expect(page.getByRole('progressbar', { name: 'Opening progress' })).toBeVisible();
    await screen(page, 'opening');
    const frame = page.getByTitle(`JupyterLab: ${notebookName}`);
    await expect(frame).toBeVisible({ timeout: RUN_TIMEOUT });
    const lab = page.frameLocator(`iframe[title="JupyterLab: ${notebookName}"]`);
    await expect(lab.locator('#jp-main-dock-panel')).toBeVisible({ timeout: 60_000 });
    await expect(page.getByLabel('Dev port')).toContainText('Dev port 8888');
    await expect(page.getByLabel('JupyterLab status')).toHaveText('running');

    // What a person does in JupyterLab's own page (its origin, the proxy's cookie): types a cell,
    // runs it with Shift-Enter over the kernel's websocket, sees its output, saves with ctrl-S.
    await runCell(lab, `print("${marker}", 6 * 7)`, `${marker} 42`);
    await lab.locator('.jp-Notebook').press('Control+s');
    await expect(lab.locator('.jp-mod-dirty')).toHaveCount(0, { timeout: 30_000 });
    await screen(page, 'jupyterlab');

    await page.getByRole('button', { name: 'Commit' }).click();
    const commit = page.getByRole('dialog', { name: 'Commit notebook' });
    await commit.getByRole('textbox', { name: 'Commit message' }).fill('A first cell');
    await commit.getByRole('button', { name: 'Commit' }).click();
    await toastSeen(page, 'Commit successful');

    // Unchanged since: nothing to commit.
    await page.getByRole('button', { name: 'Commit' }).click();
    await commit.getByRole('button', { name: 'Commit' }).click();
    await expect(commit.getByRole('status')).toContainText('Nothing to commit');
    await commit.getByRole('button', { name: 'Cancel' }).click();

    // A shell in JupyterLab's container.
    await page.getByRole('button', { name: 'Terminal' }).click();
    await expect(page.getByRole('status', { name: 'Terminal status' })).toContainText('Connected', { timeout: 30_000 });
    await screen(page, 'terminal');
  });

  test('previews the committed notebook in the sandboxed frame', async ({ page }) => {
    await signIn(page, owner.email, owner.password);
    await openProject(page);
    await page.getByRole('table', { name: 'Notebooks' }).getByRole('link', { name: `Imported ${stamp}`, exact: true }).click();
    await page.getByRole('link', { name: 'Preview' }).click();
    await expect(page).toHaveURL(/\/notebooks\/[^/]+\/preview$/);
    await expect(page.getByRole('status', { name: 'Rendering the notebook' })).toBeVisible();
    const frame = page.getByTitle(`Preview of Imported ${stamp}`);
    await expect(frame).toBeVisible({ timeout: 20_000 });
    await expect(frame).toHaveAttribute('sandbox', '');
    await expect(page.frameLocator(`iframe[title="Preview of Imported ${stamp}"]`).getByText(`Imported ${marker}`)).toBeVisible();
    await screen(page, 'preview');
    if (realNode) {
      await openProject(page);
      await page.getByRole('table', { name: 'Notebooks' }).getByRole('link', { name: notebookName, exact: true }).click();
      await page.getByRole('link', { name: 'Preview' }).click();
      await expect(page.frameLocator(`iframe[title="Preview of ${notebookName}"]`).getByText(marker).first()).toBeVisible({ timeout: 20_000 });
    }
  });

  test('an R notebook runs R in JupyterLab, and Stop ends its server', async ({ page, request }) => {
    test.skip(!realNode, 'JupyterLab runs on the real node: set LUDIS_E2E_REAL_NODE=1');
    test.setTimeout(RUN_TIMEOUT + 120_000);
    const token = (await apiLogin(request, owner.email, owner.password)).token;
    const headers = { Authorization: `Bearer ${token}` };
    const list = await request.get(`/v1/datasets/listdatasets?filter=all&page=1&search=${encodeURIComponent('Retail sales')}`, { headers });
    const sample = ((await list.json()) as { datasets: { id: string; name: string }[] }).datasets.find((d) => d.name === SAMPLE)!;
    const created = await request.post('/v1/projects', {
      headers,
      data: { project: { name: `R notes ${stamp}`, description: 'R in notebooks', language: 'r', dataset_ids: [sample.id] } },
    });
    expect(created.ok(), await created.text()).toBe(true);
    const rProject = ((await created.json()) as { project: { id: string } }).project.id;
    const nb = await request.post('/v1/notebook', { headers, data: { notebook: { name: `R cells ${stamp}`, description: 'R', project_id: rProject } } });
    expect(nb.ok(), await nb.text()).toBe(true);
    const rNotebook = ((await nb.json()) as { notebook: { id: string } }).notebook.id;
    try {
      await signIn(page, owner.email, owner.password);
      await page.goto(`/notebooks/${rNotebook}`);
      const title = `JupyterLab: R cells ${stamp}`;
      await expect(page.getByTitle(title)).toBeVisible({ timeout: RUN_TIMEOUT });
      const lab = page.frameLocator(`iframe[title="${title}"]`);
      await runCell(lab, 'cat("r", 6 * 7)', 'r 42');
      await screen(page, 'r-notebook');
      await page.getByRole('button', { name: 'Stop' }).click();
      await toastSeen(page, 'JupyterLab stopped: your saved work stays in the project');
      await expect(page.getByLabel('JupyterLab status')).toHaveText('stopped', { timeout: 60_000 });
      await expect(page.getByTitle(title)).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Start JupyterLab' })).toBeVisible();
    } finally {
      await request.delete(`/v1/projects/${rProject}`, { headers });
    }
  });

  test('renames the notebook, deletes it, and deletes the project', async ({ page }) => {
    await signIn(page, owner.email, owner.password);
    await openProject(page);
    await page.getByRole('link', { name: `Edit ${notebookName}` }).click();
    await expect(page).toHaveURL(/\/notebooks\/[^/]+\/edit$/);
    await page.getByRole('textbox', { name: /^Notebook name/ }).fill(renamed);
    await screen(page, 'edit');
    await page.getByRole('button', { name: 'Save' }).click();
    await toastSeen(page, 'Notebook updated!');
    await expect(page.getByRole('heading', { name: projectName })).toBeVisible();
    const notebooks = page.getByRole('table', { name: 'Notebooks' });
    await expect(notebooks.getByRole('link', { name: renamed, exact: true })).toBeVisible();

    await notebooks.getByRole('button', { name: `Delete ${renamed}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Please confirm' });
    await expect(confirm).toContainText('Are you sure you want to delete this Notebook?');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toastSeen(page, 'Notebook Deleted!');
    await expect(notebooks.getByRole('link', { name: renamed, exact: true })).toHaveCount(0);

    await page.goto('/projects');
    await page.getByRole('button', { name: `Actions for ${projectName}` }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    await expect(confirm).toContainText('Are you sure you want to delete this Project?');
    await screen(page, 'delete-project');
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await toastSeen(page, 'Project Deleted!');
    await expect(page.getByRole('link', { name: projectName, exact: true })).toHaveCount(0);
  });
});
