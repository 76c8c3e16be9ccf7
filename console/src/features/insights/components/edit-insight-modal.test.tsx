import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { LEAVE_LABEL, STAY_LABEL, UNSAVED_CHANGES_TITLE } from '@/components/ui/unsaved-changes';
import { EditInsightModal, EMPTY_NAME, hasEditableUrl, UPDATE_FAILED } from '@/features/insights/components/edit-insight-modal';
import { makeInsight } from '@/testing/insights';
import { mockFetch, on } from '@/testing/fetch-mock';
import { landing, renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const images = on('GET', '/v1/images/defaults', {
  body: { success: true, images: Array.from({ length: 15 }, (_, i) => ({ name: `insight-${i + 1}.svg`, url: `/v1/images/defaults/insight-${i + 1}.svg` })) },
});
const config = on('GET', '/v1/config', { body: { success: true, config: { photoUpload: true } } });

describe('edit insight modal', () => {
  it('offers the app URL only for applications without a container', () => {
    expect(hasEditableUrl({ app_type: 'application', container_name: null })).toBe(true);
    expect(hasEditableUrl({ app_type: 'application', container_name: 'c-1' })).toBe(false);
    expect(hasEditableUrl({ app_type: 'user_report', container_name: null })).toBe(false);
  });

  it("refuses a blank name with 'Empty name not allowed' and sends nothing", async () => {
    signIn();
    const calls = mockFetch(images, config);
    renderWithProviders(<EditInsightModal insight={makeInsight({ name: 'Sales' })} onClose={() => undefined} />);
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await user().clear(name);
    await user().type(name, '   ');
    await user().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(EMPTY_NAME)).toBeInTheDocument();
    expect(EMPTY_NAME).toBe('Empty name not allowed');
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);
  });

  it("saves name, description, image and URL, and toasts the server's message", async () => {
    signIn();
    const onClose = vi.fn();
    const app = makeInsight({ id: 'e1', name: 'Sales', description: 'Q', container_name: null, status: 'external', app_url: 'https://old.io' });
    const calls = mockFetch(
      images,
      config,
      on('PUT', '/v1/applications/e1', { body: { success: true, message: 'Application updated!', application: { ...app, name: 'Sales 2' } } }),
    );
    renderWithProviders(<EditInsightModal insight={app} onClose={onClose} />);
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await user().type(name, ' 2');
    const url = screen.getByRole('textbox', { name: /^App URL/ });
    await user().clear(url);
    await user().type(url, 'https://new.io');
    await user().click(await screen.findByRole('button', { name: 'Default image 3' }));
    await user().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Application updated!')).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
      entity: { name: 'Sales 2', description: 'Q', img_path: '/v1/images/defaults/insight-3.svg', app_url: 'https://new.io' },
    });
    expect(onClose).toHaveBeenCalled();
  });

  it("has no URL field for a cluster app and says 'Update Application failed' on failure", async () => {
    signIn();
    mockFetch(images, config, on('PUT', '/v1/applications/e2', { status: 400, body: { success: false, message: 'Empty URL not allowed' } }));
    renderWithProviders(<EditInsightModal insight={makeInsight({ id: 'e2', name: 'Clustered', container_name: 'c-1' })} onClose={() => undefined} />);
    await screen.findByRole('textbox', { name: /^Name/ });
    expect(screen.queryByRole('textbox', { name: /^App URL/ })).not.toBeInTheDocument();
    await user().click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findAllByText(UPDATE_FAILED)).not.toHaveLength(0);
    expect(UPDATE_FAILED).toBe('Update Application failed');
  });

  it('marks the App URL field when the server refuses the address', async () => {
    signIn();
    const invalid = 'Enter a valid URL (http:// or https://)';
    mockFetch(images, config, on('PUT', '/v1/applications/e3', { status: 400, body: { success: false, code: 'invalid_url', message: invalid } }));
    renderWithProviders(<EditInsightModal insight={makeInsight({ id: 'e3', name: 'External', container_name: null, app_url: 'https://a.io' })} onClose={() => undefined} />);
    const url = await screen.findByRole('textbox', { name: /^App URL/ });
    await user().clear(url);
    await user().type(url, 'ftp://a.io');
    await user().click(screen.getByRole('button', { name: 'Save' }));
    await vi.waitFor(() => expect(url).toHaveAccessibleDescription(invalid));
  });

  it("asks 'You have unsaved changes' when closed dirty; 'Stay on this page' keeps it open", async () => {
    signIn();
    mockFetch(images, config);
    const onClose = vi.fn();
    renderWithProviders(<EditInsightModal insight={makeInsight({ name: 'Sales' })} onClose={onClose} />);
    // Clean: closes at once.
    await user().click(await screen.findByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    expect(screen.queryByText(UNSAVED_CHANGES_TITLE)).not.toBeInTheDocument();

    await user().type(screen.getByRole('textbox', { name: /^Name/ }), 'x');
    await user().click(screen.getByRole('button', { name: 'Cancel' }));
    const dialog = await screen.findByRole('dialog', { name: UNSAVED_CHANGES_TITLE });
    await user().click(within(dialog).getByRole('button', { name: STAY_LABEL }));
    expect(onClose).toHaveBeenCalledTimes(1);
    await user().click(screen.getByRole('button', { name: 'Cancel' }));
    await user().click(within(await screen.findByRole('dialog', { name: UNSAVED_CHANGES_TITLE })).getByRole('button', { name: LEAVE_LABEL }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it("asks 'You have unsaved changes' on Escape when dirty, as Cancel does; Escape on that question stays", async () => {
    signIn();
    mockFetch(images, config);
    const onClose = vi.fn();
    renderWithProviders(<EditInsightModal insight={makeInsight({ name: 'Sales' })} onClose={onClose} />);
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await user().type(name, 'x');
    await user().keyboard('{Escape}');
    const question = await screen.findByRole('dialog', { name: UNSAVED_CHANGES_TITLE });
    expect(onClose).not.toHaveBeenCalled();
    // Escape on the question is 'Stay on this page': the edit dialog and its text stay.
    await user().keyboard('{Escape}');
    await vi.waitFor(() => expect(question).not.toBeInTheDocument());
    expect(onClose).not.toHaveBeenCalled();
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveValue('Salesx');
    // Clean again: Escape closes at once.
    await user().clear(screen.getByRole('textbox', { name: /^Name/ }));
    await user().type(screen.getByRole('textbox', { name: /^Name/ }), 'Sales');
    await user().keyboard('{Escape}');
    await vi.waitFor(() => expect(onClose).toHaveBeenCalledTimes(1));
    expect(screen.queryByRole('dialog', { name: UNSAVED_CHANGES_TITLE })).not.toBeInTheDocument();
  });

  it.each([
    ['the name', () => user().type(screen.getByRole('textbox', { name: /^Name/ }), 'x')],
    ['the description', () => user().type(screen.getByRole('textbox', { name: 'Description' }), ' more')],
    ['the app URL', () => user().type(screen.getByRole('textbox', { name: /^App URL/ }), '/v2')],
    ['the image', async () => user().click(await screen.findByRole('button', { name: 'Default image 2' }))],
  ])("asks 'You have unsaved changes' on Escape after changing %s, with the focus where the change was made", async (_, change) => {
    signIn();
    mockFetch(images, config);
    const onClose = vi.fn();
    const external = makeInsight({ name: 'Sales', description: 'Q', status: 'external', container_name: null, app_url: 'https://old.io', img_path: null });
    renderWithProviders(<EditInsightModal insight={external} onClose={onClose} />);
    await screen.findByRole('textbox', { name: /^Name/ });
    await change();
    await user().keyboard('{Escape}');
    expect(await screen.findByRole('dialog', { name: UNSAVED_CHANGES_TITLE })).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('holds a navigation away while there are unsaved edits', async () => {
    signIn();
    mockFetch(images, config);
    const { router } = renderWithProviders(<EditInsightModal insight={makeInsight({ name: 'Sales' })} onClose={() => undefined} />, {
      url: '/insights',
      path: '/insights',
      routes: [landing('/home')],
    });
    fireEvent.change(await screen.findByRole('textbox', { name: /^Name/ }), { target: { value: 'Changed' } });
    void router.navigate('/home');
    const dialog = await screen.findByRole('dialog', { name: UNSAVED_CHANGES_TITLE });
    expect(router.state.location.pathname).toBe('/insights');
    await user().click(within(dialog).getByRole('button', { name: LEAVE_LABEL }));
    expect(await screen.findByText('landed on /home')).toBeInTheDocument();
  });
});
