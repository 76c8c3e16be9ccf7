import { useReducer } from 'react';

import { decodeText } from '@/features/projects/utils/files';
import type { FileContent } from '@/lib/api/types';

/** A file open in the editor (spec 001 §3 "file content": path, content and an unsaved flag). */
export type OpenFile = {
  path: string;
  /** The blob the text was loaded from or last committed as; a commit names it (stale check). */
  sha: string;
  /** The text at `sha`. */
  saved: string;
  /** The text in the editor. */
  text: string;
  /** Not UTF-8: shown, never edited. */
  binary: boolean;
};

export type OpenFiles = { files: OpenFile[]; active: string | null };

export type OpenFilesAction =
  /** Loaded from the branch head: added (or, if unchanged, refreshed) and shown. */
  | { type: 'opened'; file: FileContent }
  | { type: 'activated'; path: string }
  | { type: 'edited'; path: string; text: string }
  /** Committed: the text is the saved text now, at the new blob. */
  | { type: 'committed'; path: string; sha: string; text: string }
  /** Loaded again from the head, dropping the unsaved text (after a stale commit). */
  | { type: 'reloaded'; file: FileContent }
  | { type: 'closed'; path: string };

export function isDirty(f: OpenFile) {
  return !f.binary && f.text !== f.saved;
}

function fromContent(file: FileContent): OpenFile {
  const text = decodeText(file.content);
  return { path: file.path, sha: file.sha, saved: text ?? '', text: text ?? '', binary: text === null };
}

function replace(state: OpenFiles, path: string, next: OpenFile | null): OpenFile[] {
  return state.files.flatMap((f) => (f.path === path ? (next ? [next] : []) : [f]));
}

export function openFilesReducer(state: OpenFiles, action: OpenFilesAction): OpenFiles {
  switch (action.type) {
    case 'opened': {
      const existing = state.files.find((f) => f.path === action.file.path);
      if (existing && isDirty(existing)) return { ...state, active: existing.path };
      const file = fromContent(action.file);
      const files = existing ? replace(state, file.path, file) : [...state.files, file];
      return { files, active: file.path };
    }
    case 'reloaded': {
      const file = fromContent(action.file);
      const known = state.files.some((f) => f.path === file.path);
      return { files: known ? replace(state, file.path, file) : [...state.files, file], active: file.path };
    }
    case 'activated':
      return state.files.some((f) => f.path === action.path) ? { ...state, active: action.path } : state;
    case 'edited':
      return { ...state, files: state.files.map((f) => (f.path === action.path && !f.binary ? { ...f, text: action.text } : f)) };
    case 'committed':
      return {
        ...state,
        files: state.files.map((f) => (f.path === action.path ? { ...f, sha: action.sha, saved: action.text } : f)),
      };
    case 'closed': {
      const index = state.files.findIndex((f) => f.path === action.path);
      if (index < 0) return state;
      const files = state.files.filter((f) => f.path !== action.path);
      const active = state.active === action.path ? (files[Math.min(index, files.length - 1)]?.path ?? null) : state.active;
      return { files, active };
    }
  }
}

/** The editor's open files, the shown one, and whether any has unsaved changes. */
export function useOpenFiles() {
  const [state, dispatch] = useReducer(openFilesReducer, { files: [], active: null });
  const active = state.files.find((f) => f.path === state.active) ?? null;
  return { ...state, activeFile: active, anyDirty: state.files.some(isDirty), dispatch };
}
