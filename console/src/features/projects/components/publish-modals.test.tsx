import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { on } from '@/testing/fetch-mock';
import { makeInsight } from '@/testing/insights';
import { makeProject, sharedProject } from '@/testing/projects';
import { expectTooltip, openFile, renderWorkspace } from '@/testing/project-workspace';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

/** Picks `option` in the select labelled `label` (its own list: the toolbar's file select offers the same files). */
const pick = async (label: string, option: string) => {
  const input = screen.getByLabelText(new RegExp(`^${label}`), { selector: 'input:not([type=hidden])' });
  await user().click(input);
  const list = await waitFor(() => {
    const id = input.getAttribute('aria-controls');
    const el = id ? document.getElementById(id) : null;
    expect(el).not.toBeNull();
    return el!;
  });
  await user().click(await within(list).findByRole('option', { name: option, hidden: true }));
};

describe('publish', () => {
  it('offers Insight, and Workflow disabled until the workflows feature', async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }));
    await user().click(await screen.findByRole('button', { name: 'Publish' }));
    const chooser = await screen.findByRole('dialog', { name: 'Publish' });
    const workflow = within(chooser).getByRole('button', { name: 'Workflow' });
    expect(workflow).toHaveAttribute('aria-disabled', 'true');
    await expectTooltip(workflow, 'Workflows arrive with the workflows feature');
    await user().click(workflow);
    expect(screen.queryByRole('dialog', { name: 'Publish as an insight' })).not.toBeInTheDocument();
    await user().click(within(chooser).getByRole('button', { name: 'Insight' }));
    expect(await screen.findByRole('dialog', { name: 'Publish as an insight' })).toBeInTheDocument();
  });

  it("publishes a new insight (language, driver file, name, description) and goes to /insights with 'App Created Successfully'", async () => {
    signIn();
    const onPublished = vi.fn();
    const { calls, router } = renderWorkspace(makeProject({ id: 'p1', language: 'python' }), {
      slots: { onPublished },
      handlers: [on('POST', '/v1/applications', { status: 201, body: { success: true, message: 'App Created Successfully', application: makeInsight({ id: 'a9' }) } })],
    });
    await openFile('README.md');
    await user().click(screen.getByRole('button', { name: 'Publish' }));
    await user().click(within(await screen.findByRole('dialog', { name: 'Publish' })).getByRole('button', { name: 'Insight' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish as an insight' });
    await user().click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(within(dialog).getByText('Empty name not allowed')).toBeInTheDocument();
    expect(within(dialog).getByText('Please select a file')).toBeInTheDocument();
    await user().type(within(dialog).getByRole('textbox', { name: 'Insight name' }), 'Forecast app');
    await user().type(within(dialog).getByRole('textbox', { name: 'Description' }), 'Next quarter');
    await pick('Driver file', 'app.py');
    await pick('Language', 'R');
    await user().click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('landed on /insights')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/insights');
    expect(screen.getByText('App Created Successfully')).toBeInTheDocument();
    expect(onPublished).toHaveBeenCalledTimes(1);
    expect(calls.find((c) => c.url === '/v1/applications')?.body).toEqual({
      application: { name: 'Forecast app', description: 'Next quarter', app_type: 'application', language: 'r', project_id: 'p1', publish_filenames: ['app.py'] },
    });
  });

  it('replaces the files of an app published from this project, then goes to /insights', async () => {
    signIn();
    const { calls } = renderWorkspace(makeProject({ id: 'p1' }), {
      handlers: [
        on('GET', '/v2/projects/getprojectapps/p1', {
          body: { success: true, projectApps: [makeInsight({ id: 'a1', name: 'Mine', access_level: 'edit' }), makeInsight({ id: 'a2', name: 'Theirs', access_level: 'view' })] },
        }),
        on('POST', '/v1/applications/restart', { body: { success: true, message: 'Application restarted', application: makeInsight({ id: 'a1' }) } }),
      ],
    });
    await user().click(await screen.findByRole('button', { name: 'Publish' }));
    await user().click(within(await screen.findByRole('dialog', { name: 'Publish' })).getByRole('button', { name: 'Insight' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish as an insight' });
    await user().click(within(dialog).getByRole('radio', { name: 'Existing insight' }));
    await user().click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(within(dialog).getByText('Please select an app to replace')).toBeInTheDocument();
    // Only apps the caller may edit can be replaced.
    await user().click(screen.getByLabelText(/^App to replace/, { selector: 'input:not([type=hidden])' }));
    expect(await screen.findByRole('option', { name: 'Mine', hidden: true })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Theirs', hidden: true })).not.toBeInTheDocument();
    await user().click(screen.getByRole('option', { name: 'Mine', hidden: true }));
    await pick('Driver file', 'app.py');
    await user().click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await screen.findByText('landed on /insights')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/v1/applications/restart')?.body).toEqual({ application_id: 'a1', publish_filenames: ['app.py'] });
  });

  it('shows a refusal in the dialog', async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }), {
      handlers: [on('POST', '/v1/applications', { status: 403, body: { success: false, message: 'You need edit access' } })],
    });
    await user().click(await screen.findByRole('button', { name: 'Publish' }));
    await user().click(within(await screen.findByRole('dialog', { name: 'Publish' })).getByRole('button', { name: 'Insight' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish as an insight' });
    await user().type(within(dialog).getByRole('textbox', { name: 'Insight name' }), 'X');
    await pick('Driver file', 'app.py');
    await user().click(within(dialog).getByRole('button', { name: 'Publish' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('You need edit access');
  });

  it('a report for an R Markdown driver by default', async () => {
    signIn();
    const { calls } = renderWorkspace(makeProject({ id: 'p1', language: 'r' }), {
      repo: { '': [{ name: 'report.Rmd', path: 'report.Rmd', type: 'file', sha: 's', size: 1, download_url: null }] },
      handlers: [on('POST', '/v1/applications', { status: 201, body: { success: true, application: makeInsight() } })],
    });
    await user().click(await screen.findByRole('button', { name: 'Publish' }));
    await user().click(within(await screen.findByRole('dialog', { name: 'Publish' })).getByRole('button', { name: 'Insight' }));
    const dialog = await screen.findByRole('dialog', { name: 'Publish as an insight' });
    await user().type(within(dialog).getByRole('textbox', { name: 'Insight name' }), 'Monthly');
    await pick('Driver file', 'report.Rmd');
    await user().click(within(dialog).getByRole('button', { name: 'Publish' }));
    await waitFor(() => expect(calls.find((c) => c.url === '/v1/applications')?.body).toMatchObject({ application: { app_type: 'report', language: 'r' } }));
  });

  it('is disabled for execute access (publishing needs edit access on the project)', async () => {
    signIn();
    renderWorkspace(sharedProject('execute', { id: 'p1' }));
    const publish = await screen.findByRole('button', { name: 'Publish' });
    expect(publish).toHaveAttribute('aria-disabled', 'true');
    await expectTooltip(publish, 'You need edit access');
  });
});
