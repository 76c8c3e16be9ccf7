import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import {
  bracketMatching,
  defaultHighlightStyle,
  foldGutter,
  foldKeymap,
  indentOnInput,
  indentUnit,
  StreamLanguage,
  syntaxHighlighting,
} from '@codemirror/language';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import {
  crosshairCursor,
  drawSelection,
  dropCursor,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
  rectangularSelection,
} from '@codemirror/view';
import { useEffect, useEffectEvent, useRef, useState } from 'react';

import { EDITOR_TAB_SIZE } from '@/config/constants';
import { type EditorLanguage, editorLanguage } from '@/features/projects/utils/files';

/** A language mode, loaded only when a file needs it. */
export async function loadLanguage(language: EditorLanguage): Promise<Extension> {
  switch (language) {
    case 'python':
      return (await import('@codemirror/lang-python')).python();
    case 'markdown':
      return (await import('@codemirror/lang-markdown')).markdown();
    case 'json':
      return (await import('@codemirror/lang-json')).json();
    case 'yaml':
      return (await import('@codemirror/lang-yaml')).yaml();
    case 'r':
      return StreamLanguage.define((await import('@codemirror/legacy-modes/mode/r')).r);
    case 'shell':
      return StreamLanguage.define((await import('@codemirror/legacy-modes/mode/shell')).shell);
  }
}

function editable(readOnly: boolean): Extension {
  return [EditorState.readOnly.of(readOnly), EditorView.editable.of(!readOnly)];
}

const theme = EditorView.theme({
  '&': { height: '100%', fontSize: '13px' },
  '.cm-scroller': { fontFamily: 'var(--mantine-font-family-monospace)' },
});

type Props = {
  /** The file shown; the editor is made anew for another file (the parent keys it by path). */
  path: string;
  value: string;
  onChange: (text: string) => void;
  /** View and execute access read only (spec 001 §4, §6). */
  readOnly: boolean;
};

/**
 * CodeMirror 6 for one file: line numbers, history, brackets, search, tab size 2, and the
 * language mode by extension (Python, R, Markdown, JSON, YAML, shell), loaded on demand. This
 * module is its own chunk (the workspace imports it lazily).
 */
export function CodeEditor({ path, value, onChange, readOnly }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const [language] = useState(() => new Compartment());
  const [access] = useState(() => new Compartment());
  const changed = useEffectEvent(onChange);
  // The first text and mode; later ones arrive through the effects below.
  const initial = useEffectEvent(() => ({ doc: value, readOnly }));

  useEffect(() => {
    const box = host.current;
    if (!box) return;
    const start = initial();
    const v = new EditorView({
      parent: box,
      state: EditorState.create({
        doc: start.doc,
        extensions: [
          lineNumbers(),
          highlightActiveLineGutter(),
          highlightSpecialChars(),
          history(),
          foldGutter(),
          drawSelection(),
          dropCursor(),
          EditorState.allowMultipleSelections.of(true),
          indentOnInput(),
          syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
          bracketMatching(),
          closeBrackets(),
          autocompletion(),
          rectangularSelection(),
          crosshairCursor(),
          highlightActiveLine(),
          highlightSelectionMatches(),
          keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...searchKeymap, ...historyKeymap, ...foldKeymap, ...completionKeymap, indentWithTab]),
          EditorState.tabSize.of(EDITOR_TAB_SIZE),
          indentUnit.of(' '.repeat(EDITOR_TAB_SIZE)),
          language.of([]),
          access.of(editable(start.readOnly)),
          EditorView.contentAttributes.of({ 'aria-label': `Contents of ${path}` }),
          EditorView.updateListener.of((u) => {
            if (u.docChanged) changed(u.state.doc.toString());
          }),
          theme,
        ],
      }),
    });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
  }, [path, language, access]);

  useEffect(() => {
    view.current?.dispatch({ effects: access.reconfigure(editable(readOnly)) });
  }, [readOnly, access]);

  // A text from outside (a reload) replaces the document; the editor's own edits come back equal.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const mode = editorLanguage(path);
    if (!mode) return;
    let live = true;
    void loadLanguage(mode).then((extension) => {
      if (live) view.current?.dispatch({ effects: language.reconfigure(extension) });
    });
    return () => {
      live = false;
    };
  }, [path, language]);

  return <div ref={host} data-testid="code-editor" data-read-only={readOnly} style={{ height: '100%', overflow: 'hidden' }} />;
}
