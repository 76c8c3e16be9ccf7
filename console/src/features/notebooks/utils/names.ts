import { LEGACY_PROJECT_SIZE, MAX_NOTEBOOK_NAME } from '@/config/constants';
import { NOTEBOOK_MESSAGES } from '@/features/notebooks/utils/messages';

/** Letters, digits, hyphens, whitespace and slashes (spec 001 §5 "Legacy project name"). */
const LEGACY_PROJECT_NAME = /^[A-Za-z0-9\-\s/]+$/;

/** The spec's message for a bad legacy project name, or null. Whitespace-only counts as empty. */
export function legacyProjectNameError(name: string): string | null {
  if (!name.trim()) return NOTEBOOK_MESSAGES.emptyProjectName;
  if (!LEGACY_PROJECT_NAME.test(name.trim())) return NOTEBOOK_MESSAGES.invalidProjectName;
  return null;
}

/** 'Empty notebook name not allowed.' or the contract's length limit, else null. */
export function notebookNameError(name: string): string | null {
  const trimmed = name.trim();
  if (!trimmed) return NOTEBOOK_MESSAGES.emptyNotebookName;
  if (trimmed.length > MAX_NOTEBOOK_NAME) return NOTEBOOK_MESSAGES.notebookNameTooLong;
  return null;
}

/** 'Description is required' for an empty (or whitespace-only) description, else null. */
export function descriptionError(description: string): string | null {
  return description.trim() ? null : NOTEBOOK_MESSAGES.descriptionRequired;
}

/** A workspace size: whole GiB from 1 to 100 (the contract), else the message. */
export function sizeError(size: string): string | null {
  const n = Number(size.trim());
  return /^\d+$/.test(size.trim()) && n >= LEGACY_PROJECT_SIZE.min && n <= LEGACY_PROJECT_SIZE.max ? null : NOTEBOOK_MESSAGES.sizeRange;
}

/** A notebook's name from its file: `Sales review.ipynb` → `Sales review`. */
export function nameFromFile(fileName: string): string {
  return fileName.replace(/\.ipynb$/i, '');
}
