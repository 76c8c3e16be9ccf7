import { expect, type Page, test } from '@playwright/test';

import { apiLogin, demoOrganization, enableForDevelopers, screenshots, signIn, toastSeen } from './session';

/**
 * Workflows end to end, against the running API (issue 15): an owner whose project holds three
 * scripts designs a three-task visual workflow (extract → transform → load) in the designer,
 * saves and publishes it, waits for 'View Details', runs it, watches the task states change
 * (transform exits 1, so load is upstream_failed), opens a task's log, marks the failed task
 * success, re-runs downstream of it and sees load succeed.
 *
 * Running the tasks needs the API's cluster with a node that runs pods and the operator: those
 * tests run only with LUDIS_E2E_REAL_NODE=1.
 */
const realNode = process.env.LUDIS_E2E_REAL_NODE === '1';
const adminEmail = process.env.LUDIS_E2E_ADMIN_EMAIL ?? 'admin@ludis.local';
const adminPassword = process.env.LUDIS_E2E_ADMIN_PASSWORD ?? '';
const stamp = Date.now();
const owner = { email: `e2e-wowner-${stamp}@example.com`, password: 'owner-pass-1', first: 'Wanda', last: 'Owner' };
const projectName = `Pipeline-${stamp}`;
const workflowName = `Nightly ${stamp}`;
const marker = `ludis-wf-${stamp}`;
/** Publishing (the operator's initialization) and a run with three pods on a fresh node take a while. */
const RUN_TIMEOUT = 240_000;
const screen = screenshots('workflows');

/** The project's three scripts: transform fails, so load is upstream_failed until re-run. */
const SCRIPTS: Record<string, string> = {
  'extract.py': `print("${marker} extract done", flush=True)\n`,
  'transform.py': `import sys\nprint("${marker} transform failing", flush=True)\nsys.exit(1)\n`,
  'load.py': `print("${marker} load done", flush=True)\n`,
};
const TASKS = [
  { label: 'extract', file: 'extract.py' },
  { label: 'transform', file: 'transform.py' },
  { label: 'load', file: 'load.py' },
];

let workflowId = '';

/** Picks `option` in the Mantine select labelled `label` inside the side panel. */
async function pick(page: Page, label: RegExp, option: string | RegExp) {
  await page.getByTestId('node-panel').getByRole('combobox', { name: label }).click();
  await page.getByRole('option', { name: option }).first().click();
}

/** The task row of the grid for `task`. */
const taskRow = (page: Page, task: string) => page.getByTestId('task-grid').locator(`[data-task="${task}"]`);

test.describe.serial('workflows', () => {
  test.skip(!adminPassword, 'set LUDIS_E2E_ADMIN_PASSWORD to the seeded superadmin password');

  test.beforeAll(async ({ request }) => {
    const admin = await apiLogin(request, adminEmail, adminPassword);
    const headers = { Authorization: `Bearer ${admin.token}` };
    const demo = await demoOrganization(request, headers);
    await enableForDevelopers(request, headers, demo, ['projects', 'workflows']);
    const res = await request.post('/v1/users', {
      headers,
      data: { user: { email: owner.email, password: owner.password, first_name: owner.first, last_name: owner.last, role: 'developer', timezone: 'UTC', organization: demo } },
    });
    expect(res.ok(), await res.text()).toBe(true);

    // The owner's project (hosted by Ludis) with the three scripts, through the API.
    const me = await apiLogin(request, owner.email, owner.password);
    const mine = { Authorization: `Bearer ${me.token}` };
    const created = await request.post('/v2/projects', { headers: mine, data: { project: { name: projectName, description: 'Workflow e2e', language: 'python' } } });
    expect(created.ok(), await created.text()).toBe(true);
    const projectId = ((await created.json()) as { project: { id: string } }).project.id;
    for (const [path, text] of Object.entries(SCRIPTS)) {
      const commit = await request.post('/v2/projects/commitfile', {
        headers: mine,
        data: { project: projectId, filePath: path, contents: Buffer.from(text).toString('base64'), message: `Add ${path}` },
      });
      expect(commit.ok(), await commit.text()).toBe(true);
    }
  });

  test('the owner designs a three-task visual workflow, saves and publishes it', async ({ page }) => {
    test.setTimeout(RUN_TIMEOUT + 60_000);
    await signIn(page, owner.email, owner.password);
    await page.getByRole('navigation', { name: 'Main navigation' }).getByRole('link', { name: 'Workflows' }).click();
    await expect(page).toHaveURL(/\/workflows$/);
    await expect(page.getByRole('heading', { name: 'Workflows' })).toBeVisible();
    await screen(page, 'list-empty');

    // Create new asks for a project first.
    await page.getByRole('button', { name: 'Create new' }).click();
    const create = page.getByRole('dialog', { name: 'Create a workflow' });
    await create.getByRole('button', { name: 'Create' }).click();
    await expect(create.getByText('Please select a project for the workflow to live in')).toBeVisible();
    await expect(create.getByText('Please add a workflow name')).toBeVisible();
    await create.getByRole('combobox', { name: /^Project/ }).click();
    await create.getByRole('combobox', { name: /^Project/ }).fill(projectName);
    await page.getByRole('option', { name: projectName }).click();
    await create.getByRole('textbox', { name: /^Workflow name/ }).fill(workflowName);
    await screen(page, 'create');
    await create.getByRole('button', { name: 'Create' }).click();
    await expect(page.getByText('Workflow Created Successfully').first()).toBeVisible();
    await expect(page).toHaveURL(/\/visual-workflows\/[^/]+$/);
    workflowId = page.url().split('/').pop()!;
    await expect(page.getByRole('heading', { name: workflowName })).toBeVisible();

    // Three tasks, each a script with an image.
    for (const [i, task] of TASKS.entries()) {
      await page.getByRole('button', { name: 'Add task' }).click();
      const panel = page.getByTestId('node-panel');
      await expect(panel.getByRole('textbox', { name: 'Task name' })).toHaveValue(`task-${i + 1}`);
      await panel.getByRole('textbox', { name: 'Task name' }).fill(task.label);
      await panel.getByText('Script', { exact: true }).click();
      await pick(page, /^Script/, task.file);
      await pick(page, /^Image/, /python/i);
    }
    await expect(page.getByTestId('task-node')).toHaveCount(3);

    // extract → transform → load, by dragging from a node's right handle to the next one's left.
    const node = (label: string) => page.locator(`[data-testid="task-node"][data-label="${label}"]`);
    for (const [from, to] of [
      ['extract', 'transform'],
      ['transform', 'load'],
    ]) {
      await node(from).locator('.react-flow__handle-right').dragTo(node(to).locator('.react-flow__handle-left'));
    }
    await expect(page.locator('.react-flow__edge')).toHaveCount(2);
    // A cycle is refused.
    await node('load').locator('.react-flow__handle-right').dragTo(node('extract').locator('.react-flow__handle-left'));
    await expect(page.locator('.react-flow__edge')).toHaveCount(2);
    await expect(page.getByTestId('task-node')).toHaveCount(3);
    await screen(page, 'designed');

    await page.getByRole('button', { name: 'Save' }).click();
    // The toast sits over Publish (top right).
    await toastSeen(page, 'Workflow Saved Successfully');

    await page.getByRole('button', { name: 'Publish' }).click();
    const confirmation = page.getByRole('dialog', { name: 'Workflow Published Successfully' });
    await expect(confirmation).toBeVisible();
    await expect(confirmation.getByRole('button', { name: 'Share With Team' })).toBeVisible();
    await screen(page, 'published');
    // View Details opens once the operator has the workflow ready.
    await expect(confirmation.getByRole('link', { name: 'View Details' })).toBeVisible({ timeout: RUN_TIMEOUT });
    await confirmation.getByRole('link', { name: 'View Details' }).click();
    await expect(page).toHaveURL(new RegExp(`/workflows/${workflowId}$`));
    await expect(page.getByRole('heading', { name: workflowName })).toBeVisible();
    await screen(page, 'details');

    // The list links it now.
    await page.goto('/workflows');
    const row = page.getByTestId('workflow-row').filter({ hasText: workflowName });
    await expect(row.getByRole('link', { name: workflowName })).toHaveAttribute('href', `/workflows/${workflowId}`);
    await expect(row).toContainText('designer');
    await expect(row).toContainText('ready');
    await expect(row.getByRole('switch')).toBeChecked();
    await screen(page, 'list');
  });

  test('runs it, watches the task states, reads a log, marks the failed task success and re-runs downstream', async ({ page }) => {
    test.skip(!realNode, 'running the tasks needs a node and the operator: set LUDIS_E2E_REAL_NODE=1');
    test.skip(!workflowId, 'the design test did not get as far as publishing');
    test.setTimeout(RUN_TIMEOUT * 3);
    await signIn(page, owner.email, owner.password);
    await page.goto(`/workflows/${workflowId}`);
    await expect(page.getByRole('heading', { name: workflowName })).toBeVisible();

    await page.getByRole('button', { name: 'Run now' }).click();
    await toastSeen(page, 'Workflow run successful!');
    await expect(page.getByTestId('run-row').first()).toBeVisible({ timeout: RUN_TIMEOUT });

    // The grid follows the run: extract succeeds, transform fails, load never starts.
    await expect(taskRow(page, 'extract')).toHaveAttribute('data-state', 'success', { timeout: RUN_TIMEOUT });
    await expect(taskRow(page, 'transform')).toHaveAttribute('data-state', 'failed', { timeout: RUN_TIMEOUT });
    await expect(taskRow(page, 'load')).toHaveAttribute('data-state', 'upstream_failed', { timeout: RUN_TIMEOUT });
    await screen(page, 'run-failed');

    // The failed task's log.
    await taskRow(page, 'transform').getByRole('button', { name: 'Logs of transform' }).click();
    const logs = page.getByRole('dialog', { name: 'Logs: transform' });
    await expect(logs.getByTestId('task-log')).toContainText(`${marker} transform failing`, { timeout: 30_000 });
    await screen(page, 'task-log');
    await page.keyboard.press('Escape');
    await expect(logs).toBeHidden();

    // Mark transform success ('Failed' is disabled for a failed task).
    await taskRow(page, 'transform').getByRole('button', { name: 'Mark State As: transform' }).click();
    await expect(page.getByRole('menuitem', { name: 'Failed' })).toBeDisabled();
    await page.getByRole('menuitem', { name: 'Success' }).click();
    await toastSeen(page, 'Task update successful!');
    await expect(taskRow(page, 'transform')).toHaveAttribute('data-state', 'success', { timeout: RUN_TIMEOUT });

    // Re-run downstream of it: nothing selected is refused, then load runs and succeeds.
    await page.getByRole('button', { name: 'Re-run with downstream' }).click();
    await toastSeen(page, 'Please select a task to re-run');
    await taskRow(page, 'load').getByRole('checkbox', { name: 'Select load' }).check();
    await page.getByRole('button', { name: 'Re-run with downstream' }).click();
    await toastSeen(page, 'Task Successfully Cleared');
    await expect(taskRow(page, 'load')).toHaveAttribute('data-state', 'success', { timeout: RUN_TIMEOUT });
    await expect(taskRow(page, 'extract')).toHaveAttribute('data-state', 'success');
    await screen(page, 'rerun-done');

    await taskRow(page, 'load').getByRole('button', { name: 'Logs of load' }).click();
    await expect(page.getByRole('dialog', { name: 'Logs: load' }).getByTestId('task-log')).toContainText(`${marker} load done`, { timeout: 30_000 });
    await screen(page, 'load-log');
  });
});
