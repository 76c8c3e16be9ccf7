import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { EditorView } from '@codemirror/view';
import { expect } from 'vitest';

import { ProjectWorkspace, type WorkspaceSlots } from '@/features/projects/components/project-workspace';
import type { PreviewState, ProjectView, RepoContentItem } from '@/lib/api/types';
import { type Handler, type MockCall, mockFetch, on } from '@/testing/fetch-mock';
import { detail, fileContent, IMAGES, item, LAUNCH, SIZES, STOPPED } from '@/testing/projects';
import { landing, renderWithProviders } from '@/testing/render';
import { user } from '@/testing/user';

/** The repository every workspace test starts from. */
export const REPO: Record<string, RepoContentItem[] | string> = {
  '': [item('app.py'), item('README.md'), item('src', 'dir'), item('logo.svg'), item('data.bin')],
  src: [item('src/util.py')],
  'app.py': 'print("hello")\n',
  'README.md': '# Forecast\n',
  'src/util.py': 'def f():\n  return 1\n',
};

/** POST /v2/projects/repocontents/{id} over `repo`: a folder's items or a file's content. */
export function repoHandler(repo: Record<string, RepoContentItem[] | string | number[]>): Handler {
  return on('POST', /^\/v2\/projects\/repocontents\//, (c) => {
    const path = (c.body as { path: string }).path;
    const entry = repo[path];
    if (entry === undefined) return { status: 404, body: { success: false, message: 'File not found' } };
    if (typeof entry === 'string') return { body: { success: true, contents: fileContent(path, entry) } };
    if (typeof entry[0] === 'number') {
      const bytes = entry as number[];
      return { body: { success: true, contents: { ...fileContent(path, ''), content: btoa(String.fromCharCode(...bytes)), size: bytes.length } } };
    }
    return { body: { success: true, contents: entry } };
  });
}

/** Renders the workspace of `project` at /projectsv2/{id} with the API answering from `repo`. */
export function renderWorkspace(
  project: ProjectView,
  {
    preview = STOPPED,
    failureLog = null,
    repo = REPO,
    handlers = [],
    slots = {},
  }: { preview?: PreviewState; failureLog?: string[] | null; repo?: typeof REPO; handlers?: Handler[]; slots?: WorkspaceSlots } = {},
) {
  const calls: MockCall[] = mockFetch(
    ...handlers,
    on('GET', `/v2/projects/${project.id}`, { body: detail(project, preview, failureLog) }),
    on('GET', `/v2/projects/launch/${project.id}`, { body: LAUNCH }),
    on('GET', '/v2/cluster/dockerimages/list', { body: { success: true, dockerImages: IMAGES } }),
    on('GET', '/v2/cluster/sizes/list', { body: SIZES }),
    repoHandler(repo),
  );
  const view = renderWithProviders(<ProjectWorkspace id={project.id} {...slots} />, {
    url: `/projectsv2/${project.id}`,
    path: '/projectsv2/:id',
    routes: [landing('/projectsv2'), landing('/insights')],
  });
  return { calls, ...view };
}

/** Opens `name` from the file navigator's folder and waits for the editor of `path`. */
export async function openFile(name: string, path = name): Promise<EditorView> {
  await user().click(await screen.findByRole('button', { name }));
  let editor: EditorView | null = null;
  await waitFor(() => {
    const dom = document.querySelector<HTMLElement>('.cm-editor');
    editor = dom ? EditorView.findFromDOM(dom) : null;
    expect(editor).not.toBeNull();
    expect(screen.getByRole('tabpanel', { name: path })).toBeInTheDocument();
  });
  return editor!;
}

/** Types at the end of the document, as the editor's own input would. */
export function typeInEditor(editor: EditorView, text: string) {
  act(() => {
    editor.dispatch({ changes: { from: editor.state.doc.length, insert: text }, userEvent: 'input.type' });
  });
}

/** Hovers `element`, expects the tooltip `text` to describe it (aria-describedby), then leaves it. */
export async function expectTooltip(element: HTMLElement, text: string) {
  await user().hover(element);
  await waitFor(() => expect(element).toHaveAccessibleDescription(text));
  fireEvent.mouseLeave(element);
  await waitFor(() => expect(screen.queryByRole('tooltip', { hidden: true })).not.toBeInTheDocument());
}
