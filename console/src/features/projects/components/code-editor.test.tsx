import { syntaxTree } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { act, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { CodeEditor, loadLanguage } from '@/features/projects/components/code-editor';
import { renderInProviders } from '@/testing/render';

function editorOf(container: HTMLElement) {
  return EditorView.findFromDOM(container.querySelector<HTMLElement>('.cm-editor')!)!;
}

describe('code editor (CodeMirror 6)', () => {
  it.each(['python', 'r', 'markdown', 'json', 'yaml', 'shell'] as const)('loads the %s mode', async (language) => {
    await expect(loadLanguage(language)).resolves.toBeTruthy();
  });

  it('highlights by the file’s language once its mode has loaded', async () => {
    const { container } = renderInProviders(<CodeEditor path="app.py" value={'def f():\n  return 1\n'} onChange={() => undefined} readOnly={false} />);
    const view = editorOf(container);
    await waitFor(() => expect(syntaxTree(view.state).topNode.type.name).toBe('Script'));
  });

  it('reports edits, takes a new text from outside, and follows read-only', async () => {
    const onChange = vi.fn();
    const { container, rerender } = renderInProviders(<CodeEditor path="a.sh" value="echo hi" onChange={onChange} readOnly={false} />);
    const view = editorOf(container);
    expect(view.contentDOM).toHaveAttribute('aria-label', 'Contents of a.sh');
    act(() => view.dispatch({ changes: { from: 7, insert: '!' } }));
    expect(onChange).toHaveBeenLastCalledWith('echo hi!');
    rerender(<CodeEditor path="a.sh" value="echo reloaded" onChange={onChange} readOnly />);
    expect(view.state.doc.toString()).toBe('echo reloaded');
    expect(view.state.readOnly).toBe(true);
    expect(view.contentDOM).toHaveAttribute('contenteditable', 'false');
  });
});
