import type { AccessLevel } from '@/lib/api/types';

/** Edit, share and delete: the owner or edit access (spec 000 §6 "Legacy project list"). */
export function canEdit(p: { access_level: AccessLevel; is_owner?: boolean }): boolean {
  return !!p.is_owner || p.access_level === 'edit';
}

/** Open JupyterLab, the terminal: execute or edit access. */
export function canExecute(p: { access_level: AccessLevel; is_owner?: boolean }): boolean {
  return canEdit(p) || p.access_level === 'execute';
}

/** The owner's name from `users`, or 'Unknown' (spec 000 §2). */
export function ownerName(p: { users: { first_name: string; last_name: string } | null }): string {
  return [p.users?.first_name, p.users?.last_name].filter(Boolean).join(' ') || 'Unknown';
}
