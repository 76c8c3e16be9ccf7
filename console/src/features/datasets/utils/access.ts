import type { DatasetView } from '@/lib/api/types';

/** The message of every control that needs edit access (spec 001 §6). */
export const EDIT_ACCESS_NEEDED = 'You need edit access';

/** Upload, new folder, delete, edit and share need edit access (the owner has it). */
export function canEdit(d: Pick<DatasetView, 'access_level'>): boolean {
  return d.access_level === 'edit';
}

/**
 * Datasets from the shared or sample list hide download, delete and access-URL actions on their
 * files (spec 001 §6): anything the caller does not own, and every sample.
 */
export function hidesFileActions(d: Pick<DatasetView, 'is_owner' | 'sample'>): boolean {
  return !d.is_owner || d.sample;
}

function fullName(u: DatasetView['user']): string {
  return [u?.first_name, u?.last_name].filter(Boolean).join(' ');
}

/** The owner's name as a list row shows it. */
export function ownerLabel(d: Pick<DatasetView, 'is_owner' | 'sample' | 'user' | 'repo_author'>): string {
  if (d.sample) return 'Sample';
  if (d.is_owner) return 'You';
  return fullName(d.user) || d.repo_author || 'Unknown';
}

/** The detail page's owner or share line (spec 001 §2 "owner or share info"). */
export function ownershipLine(d: Pick<DatasetView, 'is_owner' | 'sample' | 'user' | 'repo_author' | 'access_level'>): string {
  if (d.sample) return 'Sample dataset';
  if (d.is_owner) return `Owner: ${fullName(d.user) || d.repo_author || 'you'}`;
  const level = d.access_level === 'edit' ? 'edit' : 'view';
  const owner = fullName(d.user) || d.repo_author;
  return `Shared with you (${level})${owner ? ` by ${owner}` : ''}`;
}

/** The access a list row shows: owner, edit or view. */
export function accessLabel(d: Pick<DatasetView, 'access_level' | 'is_owner'>): string {
  return d.is_owner ? 'owner' : d.access_level;
}
