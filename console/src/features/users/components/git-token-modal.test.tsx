import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { GitTokenModal } from '@/features/users/components/git-token-modal';
import { getSession } from '@/lib/auth';
import { mockFetch, on } from '@/testing/fetch-mock';
import { renderWithProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

describe('git token modal', () => {
  it('needs both fields (blank counts as empty), saves with PUT /v1/git_detail and marks the session', async () => {
    signIn({ has_git_token: false });
    const calls = mockFetch(on('PUT', '/v1/git_detail', { body: { success: true, message: 'Profile updated successfully!' } }));
    const onSaved = vi.fn();
    renderWithProviders(<GitTokenModal opened onClose={() => undefined} onSaved={onSaved} />);
    const dialog = await screen.findByRole('dialog', { name: 'Connect your git account' });
    await user().type(within(dialog).getByRole('textbox', { name: 'Git username' }), 'ada');
    await user().type(within(dialog).getByLabelText(/Personal access token/), '   ');
    await user().click(within(dialog).getByRole('button', { name: 'Save and continue' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please enter both the Git username and the personal access token');
    expect(calls).toHaveLength(0);
    await user().type(within(dialog).getByLabelText(/Personal access token/), 'ghp_secret{Enter}');
    await vi.waitFor(() => expect(onSaved).toHaveBeenCalledTimes(1));
    expect(calls[0].body).toEqual({ git_username: 'ada', git_token: 'ghp_secret' });
    expect(getSession().user).toMatchObject({ has_git_token: true, git_username: 'ada' });
  });

  it('stays open when the API refuses, and says why', async () => {
    signIn();
    mockFetch(on('PUT', '/v1/git_detail', { status: 400, body: { success: false, message: 'Please enter both the Git username and the personal access token' } }));
    const onSaved = vi.fn();
    renderWithProviders(<GitTokenModal opened onClose={() => undefined} onSaved={onSaved} />);
    const dialog = await screen.findByRole('dialog', { name: 'Connect your git account' });
    await user().type(within(dialog).getByRole('textbox', { name: 'Git username' }), 'ada');
    await user().type(within(dialog).getByLabelText(/Personal access token/), 'x{Enter}');
    expect(await screen.findByText('Please enter both the Git username and the personal access token')).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
    expect(getSession().user?.has_git_token).toBe(false);
  });
});
