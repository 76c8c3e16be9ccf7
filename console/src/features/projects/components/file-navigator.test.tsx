import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { sortItems } from '@/features/projects/components/file-navigator';
import { on } from '@/testing/fetch-mock';
import { item, makeProject } from '@/testing/projects';
import { openFile, REPO, renderWorkspace } from '@/testing/project-workspace';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const folderCalls = (calls: { url: string; body: unknown }[], path: string) =>
  calls.filter((c) => c.url === '/v2/projects/repocontents/p1' && (c.body as { path: string }).path === path);

describe('file navigator', () => {
  it('sorts folders first, then files, by name', () => {
    expect(sortItems([item('b.py'), item('z', 'dir'), item('a.py'), item('c', 'dir')]).map((i) => i.name)).toEqual(['c', 'z', 'a.py', 'b.py']);
  });

  it('enters a folder, opens a file in it, goes back and refreshes', async () => {
    signIn();
    const { calls } = renderWorkspace(makeProject({ id: 'p1' }));
    const back = await screen.findByRole('button', { name: 'Back' });
    expect(back).toHaveAttribute('aria-disabled', 'true');
    expect(folderCalls(calls, '')[0].body).toEqual({ project: 'p1', path: '' });
    await user().click(await screen.findByRole('button', { name: 'src' }));
    expect(await screen.findByText('/src')).toBeInTheDocument();
    const editor = await openFile('util.py', 'src/util.py');
    expect(editor.state.doc.toString()).toBe('def f():\n  return 1\n');
    await user().click(screen.getByRole('button', { name: 'Back' }));
    expect(await screen.findByRole('button', { name: 'app.py' })).toBeInTheDocument();
    const before = folderCalls(calls, '').length;
    await user().click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(folderCalls(calls, '').length).toBe(before + 1));
  });

  it('says when a folder is empty', async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }), { repo: { ...REPO, '': [] } });
    expect(await screen.findByText('This folder is empty.')).toBeInTheDocument();
  });

  it('deletes a file after confirming, as a commit naming its blob, and closes it', async () => {
    signIn();
    let gone = false;
    const { calls } = renderWorkspace(makeProject({ id: 'p1' }), {
      handlers: [
        on('POST', '/v2/projects/deletefile', () => {
          gone = true;
          return { body: { success: true, message: 'File deleted' } };
        }),
        // After the delete the root no longer has the file (the other answers come from REPO).
        (c) => (c.url === '/v2/projects/repocontents/p1' && (c.body as { path: string }).path === '' && gone ? { body: { success: true, contents: [item('README.md')] } } : undefined),
      ],
    });
    await openFile('app.py');
    await user().click(screen.getByRole('button', { name: 'Delete app.py' }));
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    expect(dialog).toHaveTextContent('Are you sure you want to delete app.py?');
    await user().click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('File deleted')).toBeInTheDocument();
    expect(calls.find((c) => c.url === '/v2/projects/deletefile')?.body).toEqual({ project: 'p1', filePath: 'app.py', sha: 'sha-app.py', message: 'Delete app.py' });
    await waitFor(() => expect(screen.queryByRole('button', { name: 'app.py' })).not.toBeInTheDocument());
    expect(screen.getByText('No file open')).toBeInTheDocument();
  });

  it('keeps the dialog open with the reason when the delete is refused (stale file)', async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }), {
      handlers: [on('POST', '/v2/projects/deletefile', { status: 409, body: { success: false, code: 'stale_file', message: 'The file changed since you opened it; reload it to see the latest version' } })],
    });
    await user().click(await screen.findByRole('button', { name: 'Delete README.md' }));
    const dialog = await screen.findByRole('dialog', { name: 'Please confirm' });
    await user().click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The file changed since you opened it');
  });
});
