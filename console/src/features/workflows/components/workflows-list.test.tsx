import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { WORKFLOWS_REFRESH_MS } from '@/config/constants';
import { getWorkflowsQueryOptions } from '@/features/workflows/api/get-workflows';
import type { ProjectPicker } from '@/features/workflows/components/slots';
import { WorkflowsList } from '@/features/workflows/components/workflows-list';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';
import { advance, installManualClock, settle } from '@/testing/clock';
import { type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { expectTooltip } from '@/testing/project-workspace';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';
import { makeWorkflow, sharedWorkflow, workflowsPage } from '@/testing/workflows';

const listCalls = (calls: MockCall[]) => calls.filter((c) => c.method === 'GET' && c.url.startsWith('/v2/workflows'));
const query = (c: MockCall) => Object.fromEntries(new URL(c.url, 'http://x').searchParams);
const row = (name: string) => screen.getByRole('row', { name: new RegExp(`\\b${name}\\b`) });

/** The project picker the app layer passes in, reduced to a native select for the test. */
const projectPicker: ProjectPicker = ({ label, value, onChange, error }) => (
  <label>
    {label}
    <select value={value ?? ''} onChange={(e) => onChange(e.currentTarget.value || null)}>
      <option value="">none</option>
      <option value="p1">Forecast</option>
    </select>
    {error && <span>{error}</span>}
  </label>
);

const render = (url = '/workflows') =>
  renderWithProviders(<WorkflowsList projectPicker={projectPicker} onShare={() => {}} />, {
    url,
    path: '/workflows',
    routes: [landing('/workflows/:id', 'details'), landing('/visual-workflows/:id', 'designer'), landing('/projectsv2/:id', 'project')],
  });

describe('workflows list', () => {
  it('refetches every 60 s through TanStack Query', () => {
    expect(WORKFLOWS_REFRESH_MS).toBe(60_000);
    expect(getWorkflowsQueryOptions({ filter: 'all', page: 1, search: '' }).meta).toEqual({ silent: true });
  });

  it('shows every column of spec 001 §2 and links only ready workflows', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v2/workflows', {
        body: workflowsPage([
          makeWorkflow({ id: 'w1', name: 'Nightly', visual: true, last_run: Math.floor(Date.now() / 1000), last_run_state: 'success', last_run_duration: 3723 }),
          makeWorkflow({ id: 'w2', name: 'Draft', visual: false, status: 'unpublished', last_run_duration: 42.367 }),
          sharedWorkflow('view', { id: 'w3', name: 'Shared', status: 'initializing' }),
        ]),
      }),
    );
    render();
    const table = await screen.findByRole('table', { name: 'Workflows' });
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual([
      'Type',
      'Active',
      'Workflow name',
      'Status',
      'Last Run',
      'Duration',
      'Access Level',
      'Creator',
      'Actions',
    ]);
    expect(query(listCalls(calls)[0])).toEqual({ filter: 'all', page: '1', pageSize: '20' });

    const nightly = row('Nightly');
    expect(within(nightly).getByRole('link', { name: 'Nightly' })).toHaveAttribute('href', '/workflows/w1');
    expect(nightly).toHaveTextContent('designer');
    expect(nightly).toHaveTextContent('ready');
    expect(nightly).toHaveTextContent('1h 2m 3s');
    expect(nightly).toHaveTextContent(/Today/);
    expect(nightly).toHaveTextContent('Owner');
    expect(nightly).toHaveTextContent('You');

    const draft = row('Draft');
    expect(draft).toHaveTextContent('manual');
    expect(draft).toHaveTextContent('42.37s');
    expect(within(draft).queryByRole('link')).not.toBeInTheDocument();
    await expectTooltip(within(draft).getByText('Draft'), WORKFLOW_MESSAGES.notReady);

    const shared = row('Shared');
    expect(shared).toHaveTextContent('Viewer');
    expect(shared).toHaveTextContent('Grace Hopper');
    expect(within(shared).queryByRole('link')).not.toBeInTheDocument();
    // Below execute the Active toggle is disabled with the spec's tooltip.
    const toggle = within(shared).getByRole('switch', { name: 'Active: Shared' });
    expect(toggle).toBeDisabled();
  });

  it('pauses and resumes with the Active toggle, disabled while the update is pending', async () => {
    signIn();
    let release: () => void = () => {};
    const held = new Promise<void>((r) => (release = r));
    let w = makeWorkflow({ id: 'w1', name: 'Nightly' });
    const calls = mockFetch(
      on('GET', '/v2/workflows', () => ({ body: workflowsPage([w]) })),
      on('PATCH', '/v2/workflows/w1', (c) => {
        w = { ...w, is_paused: (c.body as { paused: boolean }).paused };
        return { body: { success: true, workflow: w } };
      }),
    );
    // Hold the PATCH answer until the test has seen the pending state.
    const fetchMock = globalThis.fetch;
    globalThis.fetch = (async (...args: Parameters<typeof fetch>) => {
      const request = args[0] instanceof Request ? args[0] : null;
      if (request?.method === 'PATCH') await held;
      return fetchMock(...args);
    }) as typeof fetch;
    render();
    const toggle = await screen.findByRole('switch', { name: 'Active: Nightly' });
    expect(toggle).toBeChecked();
    await user().click(toggle);
    await waitFor(() => expect(toggle).toBeDisabled());
    expect(toggle).not.toBeChecked();
    release();
    await waitFor(() => expect(toggle).toBeEnabled());
    expect(calls.find((c) => c.method === 'PATCH')?.body).toEqual({ paused: true });
    expect(toggle).not.toBeChecked();
  });

  it('asks the API again after 60 s', async () => {
    signIn();
    installManualClock();
    const calls = mockFetch(on('GET', '/v2/workflows', { body: workflowsPage([makeWorkflow({ name: 'Nightly' })]) }));
    render();
    await settle(() => expect(screen.getByRole('table', { name: 'Workflows' })).toBeInTheDocument());
    expect(listCalls(calls)).toHaveLength(1);
    await advance(WORKFLOWS_REFRESH_MS - 1000);
    expect(listCalls(calls)).toHaveLength(1);
    await advance(1000);
    await settle(() => expect(listCalls(calls)).toHaveLength(2));
  });

  it('creates a workflow: a project first, then a name, then the designer', async () => {
    signIn();
    const created = makeWorkflow({ id: 'w9', name: 'ETL', status: 'unpublished' });
    const calls = mockFetch(
      on('GET', '/v2/workflows', { body: workflowsPage([]) }),
      on('POST', '/v2/workflows', { status: 201, body: { success: true, workflow: created, message: 'Workflow Created Successfully' } }),
    );
    render();
    expect(await screen.findByText('No workflows yet')).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Create new' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a workflow' });
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText(WORKFLOW_MESSAGES.selectProject)).toBeInTheDocument();
    expect(within(dialog).getByText(WORKFLOW_MESSAGES.emptyName)).toBeInTheDocument();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await user().selectOptions(within(dialog).getByRole('combobox', { name: /Project/ }), 'p1');
    await user().type(within(dialog).getByRole('textbox', { name: /Workflow name/ }), ' ETL ');
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('designer')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ project_id: 'p1', name: 'ETL', visual_workflow: true });
  });

  it('offers Edit, Edit in Designer, Project, Share and Delete to editors, and deletes after the confirm text', async () => {
    signIn();
    let deleted = false;
    const calls = mockFetch(
      on('GET', '/v2/workflows', () => ({ body: workflowsPage(deleted ? [] : [makeWorkflow({ id: 'w1', name: 'Nightly' })]) })),
      on('POST', '/v2/workflows/delete/w1', () => {
        deleted = true;
        return { body: { success: true, message: 'Workflow deleted successfully!' } };
      }),
    );
    render();
    await user().click(await screen.findByRole('button', { name: 'Actions for Nightly' }));
    const items = (await screen.findAllByRole('menuitem', { hidden: true })).map((i) => i.textContent);
    expect(items).toEqual(['Edit', 'Edit in Designer', 'Project', 'Share', 'Delete']);
    await user().click(screen.getByRole('menuitem', { name: 'Delete', hidden: true }));
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(dialog).toHaveTextContent(WORKFLOW_MESSAGES.deleteConfirm);
    await user().click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No workflows yet')).toBeInTheDocument();
    expect(calls.filter((c) => c.url === '/v2/workflows/delete/w1')).toHaveLength(1);
  });

  it('shows viewers the designer and the project only, and the project link is off without project access', async () => {
    signIn();
    mockFetch(on('GET', '/v2/workflows', { body: workflowsPage([sharedWorkflow('view', { name: 'Shared', project_access_level: null })]) }));
    render();
    await user().click(await screen.findByRole('button', { name: 'Actions for Shared' }));
    const items = await screen.findAllByRole('menuitem', { hidden: true });
    expect(items.map((i) => i.textContent)).toEqual(['Edit in Designer', 'Project']);
    expect(items[1]).toBeDisabled();
  });

  it('opens the import error of a broken workflow in full', async () => {
    signIn();
    const error = 'Traceback (most recent call last):\n  File "w_dag.py", line 3\nNameError: name \'DAG\' is not defined';
    mockFetch(on('GET', '/v2/workflows', { body: workflowsPage([makeWorkflow({ name: 'Broken', status: 'broken', import_error: error })]) }));
    render();
    await user().click(await screen.findByRole('button', { name: 'Why Broken is broken' }));
    const dialog = await screen.findByRole('dialog', { name: 'Broken is broken' });
    expect(within(dialog).getByTestId('import-error').textContent).toBe(error);
  });
});
