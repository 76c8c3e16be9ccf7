import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { WorkflowPublishModal, workflowOptionLabel } from '@/features/workflows/components/workflow-publish-modal';
import { ProjectWorkflows } from '@/features/workflows/components/project-workflows';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';
import { makeWorkflow, workflowsPage } from '@/testing/workflows';

const visual = makeWorkflow({ id: 'a1b2c3d4e5f6-visual', name: 'Designer flow', visual: true });
const manual = makeWorkflow({ id: '9f8e7d6c5b4a-manual', name: 'DAG flow', visual: false });

const pick = async (label: string, option: string) => {
  await user().click(screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input:not([type=hidden])' }));
  await user().click(await screen.findByRole('option', { name: option, hidden: true }));
};

function setup() {
  signIn();
  const calls = mockFetch(
    on('GET', '/v2/workflows', { body: workflowsPage([visual, manual]) }),
    on('POST', /^\/v2\/workflows\/(visual\/)?publish\//, (c) => ({
      body: { success: true, workflow: { ...(c.url.includes('visual') ? visual : manual), status: 'initializing' }, message: 'Workflow Published Successfully' },
    })),
  );
  const onPublished = vi.fn();
  renderWithProviders(<WorkflowPublishModal projectId="p1" files={['app.py', `${manual.id}_dag.py`, 'lib.py']} onClose={() => {}} onPublished={onPublished} />);
  return { calls, onPublished };
}

describe("the project's workflow publish", () => {
  it('labels a workflow with the first 7 characters of its id', () => {
    expect(workflowOptionLabel(visual)).toBe('a1b2c3d · Designer flow (designer)');
  });

  it("asks for a workflow ('Please select or create a workflow'), then publishes a visual one with only project_id", async () => {
    const { calls, onPublished } = setup();
    const dialog = await screen.findByRole('dialog', { name: 'Publish as a workflow' });
    await user().click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await within(dialog).findByText(WORKFLOW_MESSAGES.selectWorkflow)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    const asked = calls.find((c) => c.url.startsWith('/v2/workflows?'))!;
    expect(new URL(asked.url, 'http://x').searchParams.get('projectId')).toBe('p1');
    await pick('Workflow', workflowOptionLabel(visual));
    expect(within(dialog).queryByLabelText('Other files')).not.toBeInTheDocument();
    await user().click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText(WORKFLOW_MESSAGES.published)).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.url, c.body])).toEqual([[`/v2/workflows/visual/publish/${visual.id}`, { project_id: 'p1' }]]);
    expect(onPublished).toHaveBeenCalledTimes(1);
  });

  it("publishes a manual one with '{id}_dag.py' and the chosen other files", async () => {
    const { calls } = setup();
    await screen.findByRole('dialog', { name: 'Publish as a workflow' });
    await pick('Workflow', workflowOptionLabel(manual));
    expect(screen.getByText(`The DAG file ${manual.id}_dag.py is published with the files you add.`)).toBeInTheDocument();
    await pick('Other files', 'lib.py');
    await user().click(screen.getByRole('button', { name: 'Publish' }));
    await screen.findByText(WORKFLOW_MESSAGES.published);
    expect(calls.filter((c) => c.method === 'POST').map((c) => [c.url, c.body])).toEqual([
      [`/v2/workflows/publish/${manual.id}`, { project_id: 'p1', file_name: `${manual.id}_dag.py`, files: ['lib.py'] }],
    ]);
  });
});

describe("the project's linked workflows", () => {
  it('lists them (details once ready, else the designer) and hides create for view access', async () => {
    signIn();
    mockFetch(on('GET', '/v2/workflows', { body: workflowsPage([visual, makeWorkflow({ id: 'w2', name: 'Fresh', status: 'unpublished' })]) }));
    const { unmount } = renderWithProviders(<ProjectWorkflows projectId="p1" canCreate={false} />);
    expect(await screen.findByRole('link', { name: 'Designer flow' })).toHaveAttribute('href', `/workflows/${visual.id}`);
    expect(screen.getByRole('link', { name: 'Fresh' })).toHaveAttribute('href', '/visual-workflows/w2');
    expect(screen.queryByRole('button', { name: 'Create workflow' })).not.toBeInTheDocument();
    unmount();
    renderWithProviders(<ProjectWorkflows projectId="p1" canCreate />);
    await user().click(await screen.findByRole('button', { name: 'Create workflow' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create a workflow' });
    // The project is known: only the name is asked.
    expect(within(dialog).queryByText(WORKFLOW_MESSAGES.selectProject)).not.toBeInTheDocument();
    await user().click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText(WORKFLOW_MESSAGES.emptyName)).toBeInTheDocument();
  });
});
