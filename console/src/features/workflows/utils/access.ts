import type { WorkflowStatus, WorkflowView } from '@/lib/api/types';
import { WORKFLOW_MESSAGES } from '@/features/workflows/utils/messages';

/**
 * What the caller may do with a workflow (spec 001 §6), mirroring the API's rule: each function
 * answers why a control is blocked (its tooltip), or null when it may be used.
 */
type Levels = Pick<WorkflowView, 'access_level' | 'project_access_level'>;

const atLeastExecute = (w: Levels) => w.access_level === 'execute' || w.access_level === 'edit';

/** Run now, the Active toggle: execute or edit on the workflow. */
export function runBlocked(w: Levels): string | null {
  return atLeastExecute(w) ? null : WORKFLOW_MESSAGES.executeOrEdit;
}

/** Schedule and publish: execute or edit on the workflow and edit on the project. */
export function scheduleBlocked(w: Levels): string | null {
  return atLeastExecute(w) && w.project_access_level === 'edit' ? null : WORKFLOW_MESSAGES.executeOrEdit;
}
export const publishBlocked = scheduleBlocked;

/** Mark state, re-run and the tasks' logs need more than view. */
export function taskControlBlocked(w: Levels): string | null {
  return atLeastExecute(w) ? null : WORKFLOW_MESSAGES.executeNeeded;
}


/** Edit, share, delete, e-mail settings, designing: edit (owners and editors). */
export function canEditWorkflow(w: Levels): boolean {
  return w.access_level === 'edit';
}

/** The project link needs access to the project. */
export function projectLinkBlocked(w: Levels): string | null {
  return w.project_access_level ? null : WORKFLOW_MESSAGES.projectAccess;
}

/** The details page opens only once the workflow is ready or broken (spec 001 §4). */
export function detailsBlocked(status: WorkflowStatus): string | null {
  return status === 'unpublished' || status === 'initializing' || status === 'broken' ? WORKFLOW_MESSAGES.notReady : null;
}
