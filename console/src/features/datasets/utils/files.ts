import { DATASET_EXTENSIONS } from '@/config/constants';

const UNITS = ['KB', 'MB', 'GB'] as const;

/**
 * A file size as the spec writes it (spec 001 §9): bytes below 1,000, then KB, MB and GB (steps
 * of 1,000) with 2 decimals: 999 → '999 bytes', 1000 → '1.00 KB', 1_500_000 → '1.50 MB'.
 * A value that would round up to 1000.00 moves to the next unit.
 */
export function formatBytes(bytes: number | null | undefined): string {
  const n = typeof bytes === 'number' && Number.isFinite(bytes) && bytes > 0 ? Math.floor(bytes) : 0;
  if (n < 1000) return `${n} ${n === 1 ? 'byte' : 'bytes'}`;
  let value = n / 1000;
  let unit = 0;
  while (unit < UNITS.length - 1 && Number(value.toFixed(2)) >= 1000) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(2)} ${UNITS[unit]}`;
}

/** The lower-cased extension with its dot ('.csv'), or '' without one. */
export function extensionOf(name: string): string {
  const base = name.split('/').pop() ?? '';
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot).toLowerCase() : '';
}

export function isAcceptedFile(name: string): boolean {
  return (DATASET_EXTENSIONS as readonly string[]).includes(extensionOf(name));
}

/** '.csv, .json, .xml, .txt, .xlsx and .xls' */
export const ACCEPTED_LIST = `${DATASET_EXTENSIONS.slice(0, -1).join(', ')} and ${DATASET_EXTENSIONS.at(-1)}`;

/** What the picker says about files it refuses. */
export function refusedMessage(names: string[]): string {
  return `Only ${ACCEPTED_LIST} files can be uploaded. Not accepted: ${names.join(', ')}`;
}

/** Splits picked files into accepted ones and the names of the refused ones. */
export function partitionFiles(files: readonly File[]): { accepted: File[]; refused: string[] } {
  const accepted: File[] = [];
  const refused: string[] = [];
  for (const f of files) {
    if (isAcceptedFile(f.name)) accepted.push(f);
    else refused.push(f.name);
  }
  return { accepted, refused };
}

/** The last segment of a key or folder prefix ('a/b/c.csv' → 'c.csv', 'a/b/' → 'b'). */
export function baseName(key: string): string {
  const parts = key.split('/').filter(Boolean);
  return parts.at(-1) ?? '';
}

/** 'a/b/' → [{name: 'a', path: 'a/'}, {name: 'b', path: 'a/b/'}]. */
export function folderSegments(prefix: string): { name: string; path: string }[] {
  const parts = prefix.split('/').filter(Boolean);
  return parts.map((name, i) => ({ name, path: `${parts.slice(0, i + 1).join('/')}/` }));
}

/** The folder a `?path=` parameter names: no leading '/', a trailing '/' unless it is the root. */
export function folderFromParam(value: string | null): string {
  const parts = (value ?? '').split('/').filter((p) => p && p !== '.' && p !== '..');
  return parts.length ? `${parts.join('/')}/` : '';
}

/**
 * Whitespace-only input is ignored in text fields and folder names (spec 001 §5): a value that is
 * only blanks stays empty.
 */
export function ignoreBlank(value: string): string {
  return value.trim() ? value : '';
}
