import { IMAGE_FILE_EXTENSIONS } from '@/config/constants';
import { PROJECT_MESSAGES } from '@/features/projects/utils/messages';

/** The contents the API sends and takes: base64 of the file's bytes. */
export function encodeText(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

export function decodeBytes(base64: string): Uint8Array<ArrayBuffer> {
  const binary = atob(base64.replace(/\s/g, ''));
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** The text of a file, or null when it is not UTF-8 (a binary file the editor does not open). */
export function decodeText(base64: string): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(decodeBytes(base64));
  } catch {
    return null;
  }
}

export function extensionOf(path: string): string {
  const name = baseName(path);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot).toLowerCase() : '';
}

export function baseName(path: string): string {
  return path.split('/').filter(Boolean).at(-1) ?? '';
}

/** The folder holding `path` ('' for the root). */
export function parentFolder(path: string): string {
  const parts = path.split('/').filter(Boolean);
  return parts.slice(0, -1).join('/');
}

export function joinPath(folder: string, name: string): string {
  return [folder, name].filter(Boolean).join('/');
}

/** Images open in a new tab instead of the editor (spec 001 §9). */
export function isImageFile(path: string): boolean {
  return (IMAGE_FILE_EXTENSIONS as readonly string[]).includes(extensionOf(path));
}

const IMAGE_TYPES: Record<string, string> = {
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
  '.gif': 'image/gif',
  '.svg': 'image/svg+xml',
};

export function imageType(path: string): string {
  return IMAGE_TYPES[extensionOf(path)] ?? 'application/octet-stream';
}

/** The editor's language modes (those CodeMirror packages exist for). */
export type EditorLanguage = 'python' | 'r' | 'markdown' | 'json' | 'yaml' | 'shell';

const LANGUAGES: Record<string, EditorLanguage> = {
  '.py': 'python',
  '.r': 'r',
  '.rmd': 'markdown',
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.json': 'json',
  '.ipynb': 'json',
  '.yaml': 'yaml',
  '.yml': 'yaml',
  '.sh': 'shell',
  '.bash': 'shell',
};

export function editorLanguage(path: string): EditorLanguage | null {
  return LANGUAGES[extensionOf(path)] ?? null;
}

/**
 * A new file's path as the git layer takes it (no leading /, no .., no .git component), or the
 * message saying what is wrong.
 */
export function checkFilePath(path: string): { path: string } | { error: string } {
  const trimmed = path.trim();
  if (!trimmed) return { error: PROJECT_MESSAGES.emptyFileName };
  const parts = trimmed.split('/');
  if (trimmed.startsWith('/') || trimmed.includes('\\') || parts.some((p) => p === '' || p === '.' || p === '..' || p === '.git')) {
    return { error: PROJECT_MESSAGES.invalidFilePath };
  }
  return { path: trimmed };
}

/** The kinds of file Run and Publish can start (the launch rule's entry files). */
export const ENTRY_FILE_EXTENSIONS = ['.py', '.r', '.rmd', '.ipynb'] as const;

/** Whether `path` can be an entry file: a Python or R script, an R Markdown document or a notebook. */
export function isEntryFile(path: string): boolean {
  return (ENTRY_FILE_EXTENSIONS as readonly string[]).includes(extensionOf(path));
}
