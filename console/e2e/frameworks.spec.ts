import { execFileSync } from 'node:child_process';

import { expect, type FrameLocator, type Page, test } from '@playwright/test';

import { appNamed, cleanUp, commitFile, createProject, type Language, shareApp } from './apps';
import { apiLogin, demoOrganization, enableForDevelopers, newSession, screenshots, signIn, toastSeen } from './session';

/**
 * The framework matrix (issue 31): each framework's own hello world, as its documentation writes
 * it (nothing Ludis-specific in the user's file), on the real node through the real app proxy in
 * Chromium. For each: the project runs the file (beside Run, the command the launch rule gives
 * it), its web view draws what the framework's client-side code draws (over its websocket where
 * it has one), it is published and opened on /app/{id} by its owner and by a Viewer, then a
 * change is committed, published again into the same app, and the app shows the new version.
 * Then what a person sees when an app cannot serve: a crashing app shows Failed with its last log
 * lines, and a preview that no node can take says why.
 *
 * Streamlit's project is made the way a person makes it (the create dialog, a file typed in the
 * editor, ctrl-S); the others' files are committed through the API, as a push would. Every test
 * stops its preview and deletes its app and project: the node has 2 cores for everyone.
 */
const realNode = process.env.LUDIS_E2E_REAL_NODE === '1';
const adminEmail = process.env.LUDIS_E2E_ADMIN_EMAIL ?? 'admin@ludis.local';
const adminPassword = process.env.LUDIS_E2E_ADMIN_PASSWORD ?? '';
const kubectl = process.env.LUDIS_E2E_KUBECTL ?? 'kubectl';
const organizationNamespace = process.env.LUDIS_E2E_NAMESPACE ?? 'ludis-demo';
const stamp = Date.now();
const owner = { email: `e2e-fwowner-${stamp}@example.com`, password: 'owner-pass-1', first: 'Fran', last: 'Works' };
const viewer = { email: `e2e-fwviewer-${stamp}@example.com`, password: 'viewer-pass-1', first: 'Vera', last: 'Views' };
/** Starting a container, a framework's first answer: generous on a busy 2-core machine. */
const SERVE_TIMEOUT = 150_000;
const screen = screenshots('frameworks');

/** Where a page of the app is: the web view's tab, or the app page's frame. */
type Surface = Page | FrameLocator;

type Framework = {
  name: string;
  language: Language;
  file: string;
  /** The file as the framework's documentation writes it; `version` changes what it shows. */
  code: (version: number) => string;
  /** What the launch rule shows beside Run. */
  command: string;
  /** Waits for what the framework's client draws, in `version`. */
  drawn: (surface: Surface, version: number) => Promise<void>;
};

const suffix = (version: number) => (version === 1 ? '' : `, version ${version}`);
const text = (surface: Surface, t: string) => expect(surface.getByText(t, { exact: true }).first()).toBeVisible({ timeout: SERVE_TIMEOUT });

const FRAMEWORKS: Framework[] = [
  {
    name: 'Streamlit',
    language: 'python',
    file: 'app.py',
    code: (v) => `import streamlit as st\n\nst.write("Hello world${suffix(v)}")\n`,
    command: 'streamlit run app.py',
    // Streamlit's page is an empty shell: the text arrives over its websocket.
    drawn: (s, v) => text(s, `Hello world${suffix(v)}`),
  },
  {
    name: 'Dash',
    language: 'python',
    file: 'app.py',
    code: (v) =>
      `from dash import Dash, html\n\napp = Dash()\n\napp.layout = [html.Div(children='Hello World${suffix(v)}')]\n\nif __name__ == '__main__':\n    app.run(debug=True)\n`,
    command: 'python app.py',
    // Dash's React renderer draws the layout it fetches from _dash-layout.
    drawn: (s, v) => text(s, `Hello World${suffix(v)}`),
  },
  {
    name: 'Flask',
    language: 'python',
    file: 'app.py',
    code: (v) => `from flask import Flask\n\napp = Flask(__name__)\n\n@app.route("/")\ndef hello_world():\n    return "<p>Hello, World!${suffix(v)}</p>"\n`,
    command: 'flask --app app.py run',
    drawn: (s, v) => text(s, `Hello, World!${suffix(v)}`),
  },
  {
    name: 'FastAPI',
    language: 'python',
    file: 'main.py',
    code: (v) =>
      `from typing import Union\n\nfrom fastapi import FastAPI\n\napp = FastAPI()\n\n\n@app.get("/")\ndef read_root():\n    return {"Hello": "World${suffix(v)}"}\n`,
    command: 'uvicorn main:app',
    drawn: (s, v) => expect(s.locator('body').first()).toContainText(`"Hello":"World${suffix(v)}"`, { timeout: SERVE_TIMEOUT }),
  },
  {
    name: 'Panel',
    language: 'python',
    file: 'app.py',
    code: (v) => `import panel as pn\n\npn.panel("Hello World${suffix(v)}").servable()\n`,
    command: 'panel serve app.py',
    // Bokeh's client draws the document it receives over its websocket.
    drawn: (s, v) => text(s, `Hello World${suffix(v)}`),
  },
  {
    name: 'Gradio',
    language: 'python',
    file: 'app.py',
    code: (v) =>
      `import gradio as gr\n\ndef greet(name, intensity):\n    return "${v === 1 ? 'Hello' : 'Bonjour'}, " + name + "!" * int(intensity)\n\ndemo = gr.Interface(\n    fn=greet,\n    inputs=["text", "slider"],\n    outputs=["text"],\n)\n\ndemo.launch()\n`,
    command: 'python app.py',
    // Gradio's client sends the name to its queue and shows the answer.
    drawn: async (s, v) => {
      const name = s.getByRole('textbox', { name: 'name' });
      await expect(name).toBeVisible({ timeout: SERVE_TIMEOUT });
      await name.fill('Ada');
      await s.getByRole('button', { name: 'Submit' }).click();
      await expect(s.getByRole('textbox', { name: 'output' })).toHaveValue(`${v === 1 ? 'Hello' : 'Bonjour'}, Ada`, { timeout: 60_000 });
    },
  },
  {
    name: 'Shiny',
    language: 'r',
    file: 'app.R',
    code: (v) =>
      [
        'library(shiny)',
        '',
        'ui <- fluidPage(',
        `  titlePanel("Hello Shiny${suffix(v)}!"),`,
        '  sidebarLayout(',
        '    sidebarPanel(sliderInput(inputId = "bins", label = "Number of bins:", min = 1, max = 50, value = 30)),',
        '    mainPanel(plotOutput(outputId = "distPlot"))',
        '  )',
        ')',
        '',
        'server <- function(input, output) {',
        '  output$distPlot <- renderPlot({',
        '    x <- faithful$waiting',
        '    bins <- seq(min(x), max(x), length.out = input$bins + 1)',
        '    hist(x, breaks = bins, col = "#007bc2", border = "white", xlab = "Waiting time to next eruption (in mins)", main = "Histogram of waiting times")',
        '  })',
        '}',
        '',
        'shinyApp(ui = ui, server = server)',
        '',
      ].join('\n'),
    command: 'shiny::runApp("app.R")',
    // The histogram is drawn by the server and sent over Shiny's websocket.
    drawn: async (s, v) => {
      await text(s, `Hello Shiny${suffix(v)}!`);
      await expect(s.locator('#distPlot img')).toBeVisible({ timeout: SERVE_TIMEOUT });
    },
  },
];

const tool = (page: Page, name: string) => page.getByRole('toolbar', { name: 'Project tools' }).getByRole('button', { name });

let ownerToken = '';

/** The project the Streamlit case makes in the console, as a person does. */
async function createInConsole(page: Page, name: string, fw: Framework) {
  await page.goto('/projectsv2');
  await page.getByRole('button', { name: 'Create project' }).click();
  const create = page.getByRole('dialog', { name: 'Create project' });
  await create.getByRole('textbox', { name: /^Name/ }).fill(name);
  await create.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await page.getByRole('button', { name: 'Add file' }).click();
  const newFile = page.getByRole('dialog', { name: 'New file' });
  await newFile.getByRole('textbox', { name: /^File name/ }).fill(fw.file);
  await newFile.getByRole('textbox', { name: /^File name/ }).press('Enter');
  await expect(page.getByRole('tabpanel', { name: fw.file })).toBeVisible();
  await page.locator('.cm-content').click();
  await page.keyboard.insertText(fw.code(1));
  await page.keyboard.press('Control+s');
  const commit = page.getByRole('dialog', { name: 'Commit changes' });
  await commit.getByRole('textbox', { name: 'Commit message' }).fill('Hello');
  await commit.getByRole('textbox', { name: 'Commit message' }).press('Enter');
  await toastSeen(page, 'Commit successful');
  return /\/projectsv2\/([^/]+)$/.exec(page.url())![1];
}

/** Publishes the project's file as a new app, or into `existing`, from the project's page. */
async function publish(page: Page, fw: Framework, appName: string, existing = false) {
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByRole('dialog', { name: 'Publish' }).getByRole('button', { name: 'Insight' }).click();
  const dialog = page.getByRole('dialog', { name: 'Publish as an insight' });
  if (existing) {
    await dialog.getByText('Existing insight', { exact: true }).click();
    await dialog.getByRole('combobox', { name: /^App to replace/ }).click();
    await page.getByRole('option', { name: appName }).click();
  } else {
    await dialog.getByRole('textbox', { name: /^Insight name/ }).fill(appName);
  }
  await dialog.getByRole('combobox', { name: /^Driver file/ }).click();
  await page.getByRole('option', { name: fw.file, exact: true }).click();
  // What it will run, before it runs.
  await expect(dialog.getByRole('group', { name: 'What it runs' }).getByLabel('Command')).toHaveText(fw.command);
  await dialog.getByRole('button', { name: 'Publish' }).click();
  await expect(page).toHaveURL(/\/insights$/);
}

/** The app's page: its frame, once the app serves. */
async function openApp(page: Page, id: string, appName: string): Promise<FrameLocator> {
  await page.goto(`/app/${id}`);
  await expect(page.getByRole('heading', { name: appName })).toBeVisible();
  await expect(page.getByTitle(appName)).toBeVisible({ timeout: SERVE_TIMEOUT });
  return page.frameLocator(`iframe[title="${appName}"]`);
}

test.describe.serial('the framework matrix', () => {
  test.skip(!adminPassword, 'set LUDIS_E2E_ADMIN_PASSWORD to the seeded superadmin password');
  test.skip(!realNode, 'the matrix runs apps: set LUDIS_E2E_REAL_NODE=1 (dev/e2e.sh does with the real node)');

  test.beforeAll(async ({ request }) => {
    const { token } = await apiLogin(request, adminEmail, adminPassword);
    const headers = { Authorization: `Bearer ${token}` };
    const demo = await demoOrganization(request, headers);
    await enableForDevelopers(request, headers, demo, ['projects', 'insights']);
    for (const u of [owner, viewer]) {
      const res = await request.post('/v1/users', {
        headers,
        data: { user: { email: u.email, password: u.password, first_name: u.first, last_name: u.last, role: 'developer', timezone: 'UTC', organization: demo } },
      });
      expect(res.ok(), await res.text()).toBe(true);
    }
    ownerToken = (await apiLogin(request, owner.email, owner.password)).token;
  });

  for (const fw of FRAMEWORKS) {
    test(`${fw.name}: runs, its web view draws, published it opens for its owner and a Viewer, a new version publishes`, async ({ page, browser, request }) => {
      test.setTimeout(9 * 60_000);
      const projectName = `${fw.name} hello ${stamp}`;
      const appName = `${fw.name} app ${stamp}`;
      let project: string | null = null;
      let app: string | null = null;
      try {
        await signIn(page, owner.email, owner.password);
        if (fw.name === 'Streamlit') {
          project = await createInConsole(page, projectName, fw);
        } else {
          project = await createProject(request, ownerToken, projectName, fw.language);
          await commitFile(request, ownerToken, project, fw.file, fw.code(1));
          await page.goto(`/projectsv2/${project}`);
          await expect(page.getByRole('heading', { name: projectName })).toBeVisible();
        }

        // Beside Run: the file and what runs it.
        const launch = page.getByRole('group', { name: 'What Run runs' });
        await launch.getByRole('combobox', { name: 'File to run' }).click();
        await page.getByRole('option', { name: fw.file, exact: true }).click();
        await expect(launch.getByLabel('Command')).toHaveText(fw.command);
        await expect(launch.getByText(fw.name, { exact: true })).toBeVisible();
        await tool(page, 'Run').click();
        await expect(tool(page, 'Stop')).toBeVisible({ timeout: SERVE_TIMEOUT });
        await expect(tool(page, 'Web view')).not.toHaveAttribute('aria-disabled', 'true', { timeout: SERVE_TIMEOUT });
        await screen(page, `${fw.name.toLowerCase()}-project`);
        const [web] = await Promise.all([page.context().waitForEvent('page'), tool(page, 'Web view').click()]);
        await fw.drawn(web, 1);
        await screen(web, `${fw.name.toLowerCase()}-web-view`);
        await web.close();
        // The preview's work is done: Stop frees its share of the node for the app.
        await tool(page, 'Stop').click();
        await expect(tool(page, 'Run')).toBeVisible({ timeout: 60_000 });

        await publish(page, fw, appName);
        app = await appNamed(request, ownerToken, appName);
        const frame = await openApp(page, app, appName);
        await fw.drawn(frame, 1);
        await screen(page, `${fw.name.toLowerCase()}-app`);

        // A Viewer opens it too.
        await shareApp(request, ownerToken, app, viewer.email, 'view');
        const viewerPage = await newSession(browser, viewer);
        await fw.drawn(await openApp(viewerPage, app, appName), 1);
        await viewerPage.context().close();

        // A change, committed and published again into the same app: the app runs it.
        await commitFile(request, ownerToken, project, fw.file, fw.code(2));
        await page.goto(`/projectsv2/${project}`);
        await publish(page, fw, appName, true);
        await fw.drawn(await openApp(page, app, appName), 2);
        await screen(page, `${fw.name.toLowerCase()}-app-v2`);
      } finally {
        await cleanUp(request, ownerToken, project, app ? [app] : []);
      }
    });
  }

  test('an app that crashes shows Failed, why, and its last log lines', async ({ page, request }) => {
    test.setTimeout(5 * 60_000);
    const appName = `Crashing app ${stamp}`;
    let project: string | null = null;
    let app: string | null = null;
    try {
      project = await createProject(request, ownerToken, `Crashing ${stamp}`, 'python');
      await commitFile(request, ownerToken, project, 'app.py', 'import pandas\nimport a_module_nobody_installed\n');
      const res = await request.post('/v1/applications', {
        headers: { Authorization: `Bearer ${ownerToken}` },
        data: { application: { name: appName, description: '', app_type: 'application', language: 'python', project_id: project, publish_filenames: ['app.py'] } },
      });
      expect(res.ok(), await res.text()).toBe(true);
      app = ((await res.json()) as { application: { id: string } }).application.id;
      await signIn(page, owner.email, owner.password);
      await page.goto(`/app/${app}`);
      const failed = page.getByRole('alert', { name: 'The app failed' });
      await expect(failed).toBeVisible({ timeout: SERVE_TIMEOUT });
      await expect(failed).toContainText('the program ended with an error (exit code 1', { timeout: SERVE_TIMEOUT });
      await expect(failed.getByLabel('Last log lines')).toContainText("ModuleNotFoundError: No module named 'a_module_nobody_installed'", { timeout: 60_000 });
      await screen(page, 'failed-app');
      // The card says so too.
      await page.goto('/insights');
      await expect(page.locator(`[data-testid="insight-card"][data-name="${appName}"]`).getByText('failed')).toBeVisible();
    } finally {
      await cleanUp(request, ownerToken, project, app ? [app] : []);
    }
  });

  /** These tests use kubectl: the real node's cluster must be named (dev/e2e.sh exports it). */
  const needsKubectl = () => expect(process.env.KUBECONFIG, 'KUBECONFIG: these tests apply resources with kubectl (dev/e2e.sh sets it with the real node)').toBeTruthy();

  /**
   * Applies a running Project asking for `cpu` with kubectl (as GitOps would), opens it in the
   * console as its owner, runs `check` on its page and deletes it.
   */
  async function withGreedyProject(page: Page, label: string, cpu: string, check: () => Promise<void>) {
    needsKubectl();
    const name = `e2e-${label.toLowerCase()}-${stamp}`;
    const displayName = `${label} ${stamp}`;
    const resource = {
      apiVersion: 'ludis.dev/v1alpha1',
      kind: 'Project',
      metadata: { name, namespace: organizationNamespace, annotations: { 'ludis.dev/owner': owner.email } },
      spec: { displayName, image: 'python-3.11', resources: { cpu, memory: '256Mi' }, preview: { running: true } },
    };
    execFileSync(kubectl, ['apply', '--server-side', '--field-manager=gitops-e2e', '-f', '-'], { input: JSON.stringify(resource), stdio: ['pipe', 'ignore', 'inherit'] });
    try {
      await signIn(page, owner.email, owner.password);
      await page.goto('/projectsv2');
      await page.getByRole('link', { name: displayName }).click({ timeout: 60_000 });
      await check();
    } finally {
      execFileSync(kubectl, ['delete', 'project', name, '-n', organizationNamespace, '--wait=false'], { stdio: 'ignore' });
    }
  }

  test('a preview that no node can take says why', async ({ page }) => {
    test.setTimeout(3 * 60_000);
    // Two CPUs: within the organization's limits, more than the node has left.
    await withGreedyProject(page, 'Greedy', '2', async () => {
      const waiting = page.getByRole('status', { name: 'The preview is waiting' });
      await expect(waiting).toContainText('waiting for a node', { timeout: SERVE_TIMEOUT });
      await expect(waiting).toContainText('Insufficient cpu');
      await screen(page, 'waiting-for-a-node');
    });
  });

  test("a preview larger than the organization's limits says why", async ({ page }) => {
    test.setTimeout(3 * 60_000);
    await withGreedyProject(page, 'Huge', '64', async () => {
      const failed = page.getByRole('alert', { name: 'The preview failed' });
      await expect(failed).toContainText("the organization's limits refuse the pod", { timeout: SERVE_TIMEOUT });
      await expect(failed).toContainText('maximum cpu usage per Container is 2');
      await screen(page, 'limits-refused');
    });
  });

  test("a run the organization's quota has no room for is refused, saying who can raise it", async ({ page, request }) => {
    needsKubectl();
    test.setTimeout(3 * 60_000);
    const project = await createProject(request, ownerToken, `Quota ${stamp}`, 'python');
    // The organization's quota shrinks to 100m of CPU (a superadmin's tier would set it; here
    // the ResourceQuota is patched, and put back after): less than the project's size, 500m.
    const cpu = (value: string) => ['patch', 'resourcequota', 'ludis-quota', '-n', organizationNamespace, '--type=merge', '-p', JSON.stringify({ spec: { hard: { 'requests.cpu': value } } })];
    const quota = JSON.parse(execFileSync(kubectl, ['get', 'resourcequota', 'ludis-quota', '-n', organizationNamespace, '-o', 'json'], { encoding: 'utf8' })) as {
      spec: { hard: Record<string, string> };
    };
    const allowed = quota.spec.hard['requests.cpu'] ?? '';
    expect(allowed, 'the organization has a quota').not.toBe('');
    try {
      execFileSync(kubectl, cpu('100m'), { stdio: 'ignore' });
      await signIn(page, owner.email, owner.password);
      await page.goto(`/projectsv2/${project}`);
      await tool(page, 'Run').click();
      const refusal = page.getByText(/^Your organization's quota of CPU is used up: /);
      await expect(refusal).toBeVisible({ timeout: 30_000 });
      await expect(refusal).toContainText('ask a Ludis administrator (superadmin) to raise the quota');
      await screen(page, 'quota-refused');
      await expect(tool(page, 'Run')).toBeVisible();
    } finally {
      execFileSync(kubectl, cpu(allowed), { stdio: 'ignore' });
      await cleanUp(request, ownerToken, project, []);
    }
  });

  test('an app asleep after its idle time wakes on its next visit', async ({ page, request }) => {
    test.setTimeout(6 * 60_000);
    needsKubectl();
    const appName = `Sleepy app ${stamp}`;
    let project: string | null = null;
    let app: string | null = null;
    try {
      project = await createProject(request, ownerToken, `Sleepy ${stamp}`, 'python');
      const page_ = [
        'import http.server, os',
        'class Page(http.server.BaseHTTPRequestHandler):',
        '    def do_GET(self):',
        '        self.send_response(200)',
        '        self.send_header("Content-Type", "text/html")',
        '        self.end_headers()',
        '        self.wfile.write(b"<h1>Awake</h1>")',
        'http.server.HTTPServer(("", int(os.environ["PORT"])), Page).serve_forever()',
        '',
      ].join('\n');
      await commitFile(request, ownerToken, project, 'app.py', page_);
      const res = await request.post('/v1/applications', {
        headers: { Authorization: `Bearer ${ownerToken}` },
        data: { application: { name: appName, description: '', app_type: 'application', language: 'python', project_id: project, publish_filenames: ['app.py'] } },
      });
      expect(res.ok(), await res.text()).toBe(true);
      app = ((await res.json()) as { application: { id: string } }).application.id;
      await signIn(page, owner.email, owner.password);
      await expect((await openApp(page, app, appName)).getByRole('heading', { name: 'Awake' })).toBeVisible({ timeout: SERVE_TIMEOUT });
      // The page says when it goes to sleep if nobody comes.
      await expect(page.getByText(/^Sleeps at .+ if unused$/)).toBeVisible();

      // Nobody came for the organization's idle time: the API's sweep marks it (as here), and the
      // operator scales it to zero.
      const [resource] = execFileSync(kubectl, ['get', 'insights', '-n', organizationNamespace, '-l', `ludis.dev/id=${app}`, '-o', 'name'], { encoding: 'utf8' }).split('\n');
      const idleSince = (): string =>
        execFileSync(kubectl, ['get', resource, '-n', organizationNamespace, '-o', "jsonpath={.metadata.annotations['ludis\\.dev/idle-since']}"], { encoding: 'utf8' });
      execFileSync(kubectl, ['annotate', resource, '-n', organizationNamespace, `ludis.dev/idle-since=${new Date().toISOString()}`], { stdio: 'ignore' });
      // The list is read again until the operator's Idle reached it (it follows only what starts).
      const card = page.locator(`[data-testid="insight-card"][data-name="${appName}"]`);
      await expect(async () => {
        await page.goto('/insights');
        await expect(card.getByText('idle', { exact: true })).toBeVisible({ timeout: 2_000 });
      }).toPass({ timeout: SERVE_TIMEOUT, intervals: [3_000] });
      await screen(page, 'idle-app-card');

      // The next visit wakes it: the frame waits, then shows the app.
      await page.goto(`/app/${app}`);
      const frame = page.frameLocator(`iframe[title="${appName}"]`);
      await expect(frame.getByRole('heading', { name: 'Awake' })).toBeVisible({ timeout: SERVE_TIMEOUT });
      // The page follows it as it starts: running again.
      await expect(page.getByLabel('running', { exact: true })).toBeVisible({ timeout: 60_000 });
      await screen(page, 'idle-app-woken');
      expect(idleSince()).toBe('');
    } finally {
      await cleanUp(request, ownerToken, project, app ? [app] : []);
    }
  });

  test("the organization's administrator sees what a running preview uses", async ({ page, request }) => {
    test.setTimeout(6 * 60_000);
    const projectName = `Usage probe ${stamp}`;
    let project: string | null = null;
    try {
      project = await createProject(request, ownerToken, projectName, 'python');
      const run = await request.post(`/v2/projects/run/${project}`, { headers: { Authorization: `Bearer ${ownerToken}` } });
      expect(run.ok(), await run.text()).toBe(true);
      await signIn(page, adminEmail, adminPassword);
      // Its pod runs until the platform's sampler (every minute) has seen it: the page is read
      // again until the preview is listed, per item and under its owner.
      const items = page.getByRole('table', { name: 'Compute per item' });
      await expect(async () => {
        await page.goto('/admin-portal');
        await page.getByRole('tab', { name: 'Entity Usage' }).click();
        await expect(page.getByRole('heading', { name: 'Compute used this week' })).toBeVisible();
        await expect(items.getByRole('row', { name: new RegExp(`^${projectName} Project`) })).toBeVisible({ timeout: 1_000 });
      }).toPass({ timeout: 4 * 60_000, intervals: [10_000] });
      await expect(page.getByRole('table', { name: 'Compute per user' }).getByRole('row', { name: new RegExp(`^${owner.first} ${owner.last}\\s*${owner.email}`) })).toBeVisible();
      await items.scrollIntoViewIfNeeded();
      await screen(page, 'compute-usage');
    } finally {
      await cleanUp(request, ownerToken, project, []);
    }
  });
});
