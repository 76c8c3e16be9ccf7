import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { WORKFLOW_POLL_MS } from '@/config/constants';
import type { SaveWorkflowRequest, VisualAnswer, WorkflowView } from '@/lib/api/types';
import { PublishConfirmation } from '@/features/workflows/components/publish-confirmation';
import type { DesignerPickers } from '@/features/workflows/components/slots';
import { WorkflowDesigner } from '@/features/workflows/components/workflow-designer';
import { TASK_MESSAGES } from '@/features/workflows/utils/tasks';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';
import { advance, installManualClock, settle } from '@/testing/clock';
import { type Handler, mockFetch, on } from '@/testing/fetch-mock';
import { expectTooltip } from '@/testing/project-workspace';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';
import { SIZES } from '@/testing/projects';
import { makeWorkflow, scriptNode, sharedWorkflow } from '@/testing/workflows';

/** The pickers the app layer passes in, reduced to native selects over fixed choices. */
const FILES = ['extract.py', 'load.csv', 'notes', 'setup.sh', 'train.R'];
const pickers: DesignerPickers = {
  file: ({ label, value, onChange, accept, error, disabled }) => (
    <label>
      {label}
      <select disabled={disabled} value={value ?? ''} onChange={(e) => onChange(e.currentTarget.value || null)}>
        <option value="">none</option>
        {FILES.filter(accept).map((f) => (
          <option key={f}>{f}</option>
        ))}
      </select>
      {error && <span>{error}</span>}
    </label>
  ),
  image: ({ value, onChange, disabled }) => (
    <label>
      Image
      <select disabled={disabled} value={value ?? ''} onChange={(e) => onChange(e.currentTarget.value || null)}>
        <option value="">none</option>
        <option>python</option>
      </select>
    </label>
  ),
  dataset: ({ value, onChange, disabled }) => (
    <label>
      Dataset
      <select disabled={disabled} value={value?.id ?? ''} onChange={(e) => onChange(e.currentTarget.value ? { id: e.currentTarget.value, name: 'Sales' } : null)}>
        <option value="">none</option>
        <option value="d1">Sales</option>
      </select>
    </label>
  ),
};

const design = (patch: Partial<VisualAnswer> = {}): VisualAnswer => ({
  success: true,
  nodes: [scriptNode('task-1', 'extract', 'extract.py'), scriptNode('task-2', 'train', 'train.R')],
  edges: [{ id: 'e-task-1-task-2', source: 'task-1', target: 'task-2' }],
  schedule: 'None',
  email_bool: false,
  email_list: [],
  email_on: 'failure',
  ...patch,
});

function api(workflow: WorkflowView, visual: VisualAnswer, ...more: Handler[]) {
  return mockFetch(
    ...more,
    on('GET', `/v2/workflows/${workflow.id}`, { body: { success: true, workflow } }),
    on('GET', `/v2/workflows/visual/${workflow.id}`, { body: visual }),
    on('GET', '/v2/cluster/sizes/list', { body: SIZES }),
  );
}

const render = (id: string) => renderWithProviders(<WorkflowDesigner id={id} pickers={pickers} />, { url: `/visual-workflows/${id}`, path: '/visual-workflows/:id' });
const nodeLabels = () => screen.getAllByTestId('task-node').map((n) => n.dataset.label);
const select = (label: RegExp) => screen.getByRole('combobox', { name: label });

describe('visual designer', () => {
  it('draws the saved nodes, adds an empty node that becomes a script task, and saves nodes, edges and e-mail settings', async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1', name: 'Nightly', status: 'unpublished', published: false });
    const calls = api(w, design(), on('POST', '/v2/workflows/save/w1', { body: { success: true, workflow: w, message: 'Workflow Saved Successfully' } }));
    render('w1');
    expect(await screen.findByRole('heading', { name: 'Nightly' })).toBeInTheDocument();
    await waitFor(() => expect(nodeLabels()).toEqual(['extract', 'train']));
    expect(screen.getByRole('link', { name: 'Workflows' })).toHaveAttribute('href', '/workflows');

    await user().click(screen.getByRole('button', { name: 'Add task' }));
    await waitFor(() => expect(nodeLabels()).toEqual(['extract', 'train', 'task-3']));
    const panel = screen.getByTestId('node-panel');
    expect(within(panel).getByRole('radio', { name: 'Empty' })).toBeChecked();
    const name = within(panel).getByRole('textbox', { name: 'Task name' });
    await user().clear(name);
    await user().type(name, 'report');
    await user().click(within(panel).getByText('Script'));
    // Only .r/.py/.rmd files for the script, .sh for the install script.
    expect(within(select(/^Script/)).getAllByRole('option').map((o) => o.textContent)).toEqual(['none', 'extract.py', 'train.R']);
    expect(within(select(/^Install script/)).getAllByRole('option').map((o) => o.textContent)).toEqual(['none', 'setup.sh']);
    await user().selectOptions(select(/^Script/), 'train.R');
    await user().selectOptions(select(/^Image/), 'python');
    await user().selectOptions(select(/^Install script/), 'setup.sh');
    // The administrator's sizes, the default first.
    await waitFor(() => expect(select(/^Size/)).toHaveValue('Default (medium · 0.5–2 CPU · 1Gi memory · 4Gi disk)'));
    await user().click(select(/^Size/));
    await user().click(await screen.findByRole('option', { name: 'large · 1.5–2 CPU · 4Gi memory · 8Gi disk', hidden: true }));

    await user().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.saved)).toBeInTheDocument();
    const body = calls.find((c) => c.url === '/v2/workflows/save/w1')!.body as SaveWorkflowRequest;
    expect(body.edges).toEqual([{ id: 'e-task-1-task-2', source: 'task-1', target: 'task-2' }]);
    expect(body.nodes?.map((n) => n.data)).toEqual([
      scriptNode('task-1', 'extract', 'extract.py').data,
      scriptNode('task-2', 'train', 'train.R').data,
      { label: 'report', taskType: 'script', taskData: { fileName: 'train.R', image: 'python', installScript: 'setup.sh', size: 'large' } },
    ]);
    expect(Object.keys(body.nodes?.[2] ?? {}).sort()).toEqual(['data', 'id', 'position', 'type']);
    expect(body).toMatchObject({ email_bool: false, email_list: [], email_on_success: false, email_on_failure: true });
  });

  it('makes an upload task: a file with an extension, a dataset and a destination folder', async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1' });
    const calls = api(w, design({ nodes: [], edges: [] }), on('POST', '/v2/workflows/save/w1', { body: { success: true, workflow: w, message: 'Workflow Saved Successfully' } }));
    render('w1');
    await user().click(await screen.findByRole('button', { name: 'Add task' }));
    const panel = await screen.findByTestId('node-panel');
    await user().click(within(panel).getByText('Upload'));
    expect(within(select(/^File to upload/)).getAllByRole('option').map((o) => o.textContent)).toEqual(['none', 'extract.py', 'load.csv', 'setup.sh', 'train.R']);
    await user().selectOptions(select(/^File to upload/), 'load.csv');
    await user().selectOptions(select(/^Dataset/), 'd1');
    await user().type(within(panel).getByRole('textbox', { name: /Destination folder/ }), 'results/');
    await user().click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(WORKFLOW_MESSAGES.saved);
    const body = calls.find((c) => c.url === '/v2/workflows/save/w1')!.body as SaveWorkflowRequest;
    expect(body.nodes?.[0]?.data).toEqual({
      label: 'task-1',
      taskType: 'upload',
      taskData: { fileName: 'load.csv', datasetID: 'd1', datasetName: 'Sales', datasetPath: 'results/', datasetDestination: 'Sales/results/' },
    });
  });

  it('deletes a node with its edges', async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1' });
    const calls = api(w, design(), on('POST', '/v2/workflows/save/w1', { body: { success: true, workflow: w, message: 'Workflow Saved Successfully' } }));
    render('w1');
    await waitFor(() => expect(nodeLabels()).toEqual(['extract', 'train']));
    fireEvent.click(screen.getAllByTestId('task-node')[0]);
    await user().click(within(await screen.findByTestId('node-panel')).getByRole('button', { name: 'Delete task' }));
    await waitFor(() => expect(nodeLabels()).toEqual(['train']));
    await user().click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(WORKFLOW_MESSAGES.saved);
    const body = calls.find((c) => c.url === '/v2/workflows/save/w1')!.body as SaveWorkflowRequest;
    expect(body.nodes?.map((n) => n.id)).toEqual(['task-2']);
    expect(body.edges).toEqual([]);
  });

  it('refuses to publish while a node is not configured, then saves and publishes', async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1', status: 'unpublished', published: false });
    const calls = api(
      w,
      design({ nodes: [scriptNode('task-1', 'extract'), { id: 'task-2', type: 'taskNode', position: { x: 0, y: 0 }, data: { label: 'empty one', taskType: null, taskData: {} } }] }),
      on('POST', '/v2/workflows/save/w1', { body: { success: true, workflow: w, message: 'Workflow Saved Successfully' } }),
      on('POST', '/v2/workflows/visual/publish/w1', { body: { success: true, workflow: { ...w, status: 'ready', published: true }, message: 'Workflow Published Successfully' } }),
    );
    render('w1');
    await user().click(await screen.findByRole('button', { name: 'Publish' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(`empty one: ${TASK_MESSAGES.unconfigured}`);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    fireEvent.click(screen.getAllByTestId('task-node')[1]);
    await user().click(within(await screen.findByTestId('node-panel')).getByRole('button', { name: 'Delete task' }));
    await user().click(screen.getByRole('button', { name: 'Publish' }));
    const confirmation = await screen.findByRole('dialog', { name: WORKFLOW_MESSAGES.published });
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.url, c.body])).toEqual([
      ['/v2/workflows/save/w1', expect.objectContaining({ edges: [] })],
      ['/v2/workflows/visual/publish/w1', { project_id: 'p1' }],
    ]);
    expect(within(confirmation).getByRole('link', { name: 'View Details' })).toHaveAttribute('href', '/workflows/w1');
  });

  it("keeps e-mail settings (only valid addresses, 'Please enter valid email') and saves them", async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1' });
    const calls = api(w, design(), on('POST', '/v2/workflows/save/w1', { body: { success: true, workflow: w, message: 'Workflow Saved Successfully' } }));
    render('w1');
    const email = await screen.findByTestId('email-settings');
    await user().click(within(email).getByRole('switch', { name: 'E-mail notifications' }));
    const addresses = within(email).getByLabelText('Addresses');
    await user().type(addresses, 'not-an-address{Enter}');
    expect(await within(email).findByText(WORKFLOW_MESSAGES.invalidEmail)).toBeInTheDocument();
    await user().type(addresses, 'ops@example.com{Enter}');
    await user().click(within(email).getByRole('checkbox', { name: 'Success' }));
    await user().click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(WORKFLOW_MESSAGES.saved);
    expect(calls.find((c) => c.url === '/v2/workflows/save/w1')?.body).toMatchObject({
      email_bool: true,
      email_list: ['ops@example.com'],
      email_on_success: true,
      email_on_failure: true,
    });
  });

  it('keeps one of Success and Failure ticked: e-mail on success only is saved as such', async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1' });
    const calls = api(w, design(), on('POST', '/v2/workflows/save/w1', { body: { success: true, workflow: w, message: 'Workflow Saved Successfully' } }));
    render('w1');
    const email = await screen.findByTestId('email-settings');
    await user().click(within(email).getByRole('switch', { name: 'E-mail notifications' }));
    await user().type(within(email).getByLabelText('Addresses'), 'ops@example.com{Enter}');
    const success = within(email).getByRole('checkbox', { name: 'Success' });
    const failure = within(email).getByRole('checkbox', { name: 'Failure' });
    // Failure alone is ticked: it cannot be unticked.
    expect(failure).toBeChecked();
    expect(failure).toBeDisabled();
    await user().click(success);
    expect(failure).toBeEnabled();
    await user().click(failure);
    expect(failure).not.toBeChecked();
    expect(success).toBeDisabled();
    await user().click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(WORKFLOW_MESSAGES.saved);
    expect(calls.find((c) => c.url === '/v2/workflows/save/w1')?.body).toMatchObject({ email_on_success: true, email_on_failure: false });
  });

  it("does not save e-mail on without an address ('Please add an email address to notify', the API's 400)", async () => {
    signIn();
    const w = makeWorkflow({ id: 'w1' });
    const calls = api(w, design());
    render('w1');
    const email = await screen.findByTestId('email-settings');
    await user().click(within(email).getByRole('switch', { name: 'E-mail notifications' }));
    expect(await within(email).findByText(WORKFLOW_MESSAGES.emailRequired)).toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getAllByText(WORKFLOW_MESSAGES.emailRequired)).toHaveLength(2));
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('says a workflow written as code has no design', async () => {
    signIn();
    api(makeWorkflow({ id: 'w1', name: 'Coded', visual: false, dag_file: 'w1_dag.py' }), design({ nodes: [], edges: [] }));
    render('w1');
    expect(await screen.findByRole('alert')).toHaveTextContent('Coded is a DAG file (w1_dag.py) in its project, not a design.');
    expect(screen.getByRole('link', { name: 'Open its details' })).toHaveAttribute('href', '/workflows/w1');
    expect(screen.queryByTestId('designer-canvas')).not.toBeInTheDocument();
  });

  it('gives viewers a read-only canvas: no add, save or delete; publish says why', async () => {
    signIn();
    api(sharedWorkflow('view', { id: 'w1' }), design());
    render('w1');
    await waitFor(() => expect(nodeLabels()).toEqual(['extract', 'train']));
    expect(screen.queryByRole('button', { name: 'Add task' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument();
    await expectTooltip(screen.getByRole('button', { name: 'Publish' }), WORKFLOW_MESSAGES.executeOrEdit);
    fireEvent.click(screen.getAllByTestId('task-node')[0]);
    const panel = await screen.findByTestId('node-panel');
    expect(within(panel).getByRole('textbox', { name: 'Task name' })).toHaveAttribute('readonly');
    expect(within(panel).queryByRole('button', { name: 'Delete task' })).not.toBeInTheDocument();
    expect(select(/^Script/)).toBeDisabled();
  });
});

describe('publish confirmation', () => {
  it("keeps 'View Details' disabled ('Please wait for initialization') until the workflow is ready", async () => {
    signIn();
    installManualClock();
    let status: WorkflowView['status'] = 'initializing';
    const calls = mockFetch(on('GET', '/v2/workflows/w1', () => ({ body: { success: true, workflow: makeWorkflow({ id: 'w1', status }) } })));
    renderWithProviders(<PublishConfirmation id="w1" onShare={() => {}} onClose={() => {}} />);
    await settle(() => expect(screen.getByRole('button', { name: 'View Details' })).toHaveAttribute('aria-disabled', 'true'));
    expect(screen.getByRole('button', { name: 'Share With Team' })).toBeInTheDocument();
    fireEvent.mouseEnter(screen.getByRole('button', { name: 'View Details' }));
    // The tooltip's own transition runs on the (fake) clock.
    await advance(1000);
    await settle(() => expect(screen.getByRole('button', { name: 'View Details' })).toHaveAccessibleDescription(WORKFLOW_MESSAGES.waitInit));
    status = 'ready';
    await advance(WORKFLOW_POLL_MS);
    await settle(() => expect(screen.getByRole('link', { name: 'View Details' })).toHaveAttribute('href', '/workflows/w1'));
    expect(calls).toHaveLength(2);
  });
});
