import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { decodeText } from '@/features/projects/utils/files';
import { type MockCall, on } from '@/testing/fetch-mock';
import { fileContent, makeProject, sharedProject } from '@/testing/projects';
import { openFile, REPO, renderWorkspace, typeInEditor } from '@/testing/project-workspace';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const commitCalls = (calls: MockCall[]) => calls.filter((c) => c.url === '/v2/projects/commitfile');
const ctrlS = (meta = false) => fireEvent.keyDown(window, { key: 's', ctrlKey: !meta, metaKey: meta });

describe('workspace: header and editor', () => {
  it('shows the name, breadcrumbs back to /projectsv2, and the root folder with folders first', async () => {
    signIn();
    const { router } = renderWorkspace(makeProject({ id: 'p1', name: 'Forecast' }));
    expect(await screen.findByRole('heading', { name: 'Forecast' })).toBeInTheDocument();
    const files = await screen.findByRole('list', { name: 'Project files' });
    await waitFor(() => expect(within(files).getAllByRole('button', { name: /^(src|app\.py|README\.md|logo\.svg|data\.bin)$/ }).map((b) => b.textContent)).toEqual(['src', 'app.py', 'data.bin', 'logo.svg', 'README.md']));
    expect(screen.getByText('No file open')).toBeInTheDocument();
    await user().click(screen.getByRole('link', { name: 'Projects' }));
    expect(await screen.findByText('landed on /projectsv2')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/projectsv2');
  });

  it('says so when the project cannot be seen (404)', async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }), { handlers: [on('GET', '/v2/projects/p1', { status: 404, body: { success: false, message: 'Project not found' } })] });
    expect(await screen.findByRole('alert')).toHaveTextContent('Project not found');
  });

  it.each([
    ['view', true],
    ['execute', true],
    ['edit', false],
  ] as const)('with %s access the editor is read-only: %s', async (level, readOnly) => {
    signIn();
    renderWorkspace(level === 'edit' ? makeProject({ id: 'p1' }) : sharedProject(level, { id: 'p1' }));
    const editor = await openFile('app.py');
    expect(editor.state.doc.toString()).toBe('print("hello")\n');
    expect(editor.state.readOnly).toBe(readOnly);
    expect(editor.contentDOM).toHaveAttribute('contenteditable', String(!readOnly));
    expect(screen.getByTestId('code-editor')).toHaveAttribute('data-read-only', String(readOnly));
    expect(screen.queryByText('Read only') !== null).toBe(readOnly);
    // Tab size 2.
    expect(editor.state.tabSize).toBe(2);
  });

  it("marks each file with unsaved changes and keeps them while switching files", async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }));
    const app = await openFile('app.py');
    typeInEditor(app, 'print(2)\n');
    expect(screen.getByRole('status', { name: 'Editor status' })).toHaveTextContent('has unsaved changes');
    expect(within(screen.getByRole('tab', { name: /app\.py/ })).getByLabelText('has unsaved changes')).toBeInTheDocument();
    const readme = await openFile('README.md');
    expect(readme.state.doc.toString()).toBe('# Forecast\n');
    expect(screen.getByRole('status', { name: 'Editor status' })).not.toHaveTextContent('has unsaved changes');
    expect(within(screen.getByRole('tab', { name: 'README.md' })).queryByLabelText('has unsaved changes')).not.toBeInTheDocument();
    await user().click(screen.getByRole('tab', { name: /app\.py/ }));
    await waitFor(() => expect(screen.getByRole('tabpanel', { name: 'app.py' }).textContent).toContain('print(2)'));
  });

  it("asks 'You have unsaved changes, are you sure you want to leave?' before leaving, and stays on request", async () => {
    signIn();
    const { router } = renderWorkspace(makeProject({ id: 'p1', name: 'Forecast' }));
    typeInEditor(await openFile('app.py'), '# more\n');
    await user().click(screen.getByRole('link', { name: 'Projects' }));
    const dialog = await screen.findByRole('dialog', { name: 'You have unsaved changes' });
    expect(dialog).toHaveTextContent('You have unsaved changes, are you sure you want to leave?');
    await user().click(within(dialog).getByRole('button', { name: 'Stay on this page' }));
    expect(router.state.location.pathname).toBe('/projectsv2/p1');
    await user().click(screen.getByRole('link', { name: 'Projects' }));
    await user().click(within(await screen.findByRole('dialog', { name: 'You have unsaved changes' })).getByRole('button', { name: 'Leave the page' }));
    expect(await screen.findByText('landed on /projectsv2')).toBeInTheDocument();
  });

  it('asks before closing a tab with unsaved changes', async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }));
    typeInEditor(await openFile('app.py'), 'x');
    await user().click(screen.getByRole('button', { name: 'Close app.py' }));
    const dialog = await screen.findByRole('dialog', { name: 'You have unsaved changes' });
    await user().click(within(dialog).getByRole('button', { name: 'Leave the page' }));
    expect(await screen.findByText('No file open')).toBeInTheDocument();
  });

  it('commits with ctrl-S (and cmd-S): the base64 text, the loaded blob and the message; then it is saved', async () => {
    signIn();
    const { calls } = renderWorkspace(makeProject({ id: 'p1' }), {
      handlers: [on('POST', '/v2/projects/commitfile', { body: { success: true, message: 'Commit successful', commit: { sha: 'c2' }, content: { path: 'app.py', sha: 'blob-2' } } })],
    });
    const editor = await openFile('app.py');
    typeInEditor(editor, 'print("é")\n');
    ctrlS(true);
    const dialog = await screen.findByRole('dialog', { name: 'Commit changes' });
    const message = within(dialog).getByRole('textbox', { name: 'Commit message' });
    expect(message).toHaveValue('Update app.py');
    await user().clear(message);
    await user().type(message, 'Say é{Enter}');
    expect(await screen.findByText('Commit successful')).toBeInTheDocument();
    const body = commitCalls(calls)[0].body as { project: string; filePath: string; contents: string; message: string; sha: string };
    expect(body).toMatchObject({ project: 'p1', filePath: 'app.py', message: 'Say é', sha: 'sha-app.py' });
    expect(decodeText(body.contents)).toBe('print("hello")\nprint("é")\n');
    expect(screen.getByRole('status', { name: 'Editor status' })).not.toHaveTextContent('has unsaved changes');
    // The next commit names the new blob.
    typeInEditor(editor, '#\n');
    ctrlS();
    await user().type(within(await screen.findByRole('dialog', { name: 'Commit changes' })).getByRole('textbox', { name: 'Commit message' }), '{Enter}');
    await waitFor(() => expect(commitCalls(calls)).toHaveLength(2));
    expect(commitCalls(calls)[1].body).toMatchObject({ sha: 'blob-2', message: 'Update app.py' });
  });

  it.each(['view', 'execute'] as const)('ctrl-S does nothing with %s access (edit only)', async (level) => {
    signIn();
    const { calls } = renderWorkspace(sharedProject(level, { id: 'p1' }));
    await openFile('app.py');
    const event = new KeyboardEvent('keydown', { key: 's', ctrlKey: true, bubbles: true, cancelable: true });
    window.dispatchEvent(event);
    // The browser's own Save dialog is kept away all the same.
    expect(event.defaultPrevented).toBe(true);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(commitCalls(calls)).toHaveLength(0);
  });

  it('ctrl-S with nothing changed opens no commit', async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }));
    await openFile('app.py');
    ctrlS();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the stale-file refusal (409) and reloads the latest version on request', async () => {
    signIn();
    let head = 'print("hello")\n';
    const { calls } = renderWorkspace(makeProject({ id: 'p1' }), {
      handlers: [
        on('POST', '/v2/projects/commitfile', {
          status: 409,
          body: { success: false, code: 'stale_file', message: 'The file changed since you opened it; reload it to see the latest version' },
        }),
        // app.py as the branch head has it now.
        (c) =>
          c.url === '/v2/projects/repocontents/p1' && (c.body as { path: string }).path === 'app.py'
            ? { body: { success: true, contents: fileContent('app.py', head, head === 'print("hello")\n' ? 'sha-app.py' : 'sha-new') } }
            : undefined,
      ],
    });
    const editor = await openFile('app.py');
    typeInEditor(editor, 'mine\n');
    head = 'theirs\n';
    await user().click(screen.getByRole('button', { name: 'Commit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Commit changes' });
    await user().click(within(dialog).getByRole('button', { name: 'Commit' }));
    const alert = await within(dialog).findByRole('alert');
    expect(alert).toHaveTextContent('The file changed since you opened it; reload it to see the latest version');
    expect(screen.queryByText('Commit successful')).not.toBeInTheDocument();
    await user().click(within(alert).getByRole('button', { name: /Reload the latest version/ }));
    await waitFor(() => expect(editor.state.doc.toString()).toBe('theirs\n'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Editor status' })).not.toHaveTextContent('has unsaved changes');
    expect(commitCalls(calls)).toHaveLength(1);
  });

  it('adds a file with a typed name (Enter submits), committed without a blob, and opens it', async () => {
    signIn();
    const { calls } = renderWorkspace(makeProject({ id: 'p1' }), {
      handlers: [on('POST', '/v2/projects/commitfile', (c) => ({ body: { success: true, message: 'Commit successful', commit: { sha: 'c3' }, content: { path: (c.body as { filePath: string }).filePath, sha: 'blob-new' } } }))],
    });
    await user().click(await screen.findByRole('button', { name: 'src' }));
    await screen.findByRole('button', { name: 'util.py' });
    await user().click(screen.getByRole('button', { name: 'Add file' }));
    const dialog = await screen.findByRole('dialog', { name: 'New file' });
    expect(dialog).toHaveTextContent('In src/');
    const name = within(dialog).getByRole('textbox', { name: 'File name' });
    await user().type(name, '../evil.py{Enter}');
    expect(within(dialog).getByText('A file name may not start with /, contain .. or name a .git folder')).toBeInTheDocument();
    await user().clear(name);
    await user().type(name, 'model.py{Enter}');
    await waitFor(() => expect(screen.getByRole('tabpanel', { name: 'src/model.py' })).toBeInTheDocument());
    const body = commitCalls(calls)[0].body as Record<string, unknown>;
    expect(body).toEqual({ project: 'p1', filePath: 'src/model.py', contents: '', message: 'Add model.py' });
    expect('sha' in body).toBe(false);
  });

  it('opens images in a new tab as an <img>, never in the editor', async () => {
    signIn();
    const tabDoc = document.implementation.createHTMLDocument('');
    const tab = { document: tabDoc, close: vi.fn() } as unknown as Window;
    const open = vi.spyOn(window, 'open').mockReturnValue(tab);
    renderWorkspace(makeProject({ id: 'p1' }), { repo: { ...REPO, 'logo.svg': '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>' } });
    await user().click(await screen.findByRole('button', { name: 'logo.svg' }));
    expect(open).toHaveBeenCalledWith('', '_blank');
    await waitFor(() => expect(tabDoc.querySelector('img')).not.toBeNull());
    expect(tabDoc.title).toBe('logo.svg');
    expect(tabDoc.querySelector('img')!.src).toMatch(/^blob:/);
    expect(tabDoc.querySelector('script')).toBeNull();
    expect(screen.getByText('No file open')).toBeInTheDocument();
    open.mockRestore();
  });

  it('shows a binary file without editing it', async () => {
    signIn();
    renderWorkspace(makeProject({ id: 'p1' }), { repo: { ...REPO, 'data.bin': [0xff, 0xfe, 0x00, 0x01] as unknown as string } });
    await user().click(await screen.findByRole('button', { name: 'data.bin' }));
    expect(await screen.findByText('data.bin is not a text file; it cannot be shown here.')).toBeInTheDocument();
  });
});
