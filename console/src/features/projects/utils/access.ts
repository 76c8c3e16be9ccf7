import type { AccessLevel, PreviewState } from '@/lib/api/types';

/** Tooltips of disabled controls (spec 001 §6, §8). */
export const NEED_EXECUTE_OR_EDIT = 'You need execute or edit access';
export const NEED_EDIT = 'You need edit access';
export const RUN_FOR_WEB_VIEW = 'Please run your code to see web view';
export const RUN_FOR_LOGS = 'Please run your code to see logs';
export const RUN_FOR_TERMINAL = 'Please run your code to use the terminal';

export function canExecute(level: AccessLevel) {
  return level === 'execute' || level === 'edit';
}

export function canEdit(level: AccessLevel) {
  return level === 'edit';
}

/** Why a control may not be used now (the tooltip), or null when it may. */
export type Gate = string | null;

export type WorkspaceGates = {
  run: Gate;
  commit: Gate;
  webView: Gate;
  secrets: Gate;
  logs: Gate;
  terminal: Gate;
  image: Gate;
  files: Gate;
  publish: Gate;
  share: Gate;
};

/**
 * What each level may do in the workspace (spec 001 §6): view reads; execute also runs, sees the
 * logs, terminal and web view; edit does everything (commit, files, secrets, image, share). Logs,
 * terminal and web view need a running container (spec 001 §4 "Run").
 */
export function workspaceGates(level: AccessLevel, preview: Pick<PreviewState, 'container_id' | 'web_url' | 'status'>): WorkspaceGates {
  const exec = canExecute(level) ? null : NEED_EXECUTE_OR_EDIT;
  const edit = canEdit(level) ? null : NEED_EDIT;
  const container = (message: string) => exec ?? (preview.container_id ? null : message);
  // The web view opens only an http(s) address (never javascript: or data:).
  const web = !!preview.web_url && /^https?:\/\//i.test(preview.web_url);
  return {
    run: exec,
    commit: edit,
    webView: exec ?? (preview.container_id && web ? null : RUN_FOR_WEB_VIEW),
    secrets: edit,
    // A failed preview's log says why (the last run's, or its archive).
    logs: preview.status === 'failed' ? exec : container(RUN_FOR_LOGS),
    terminal: container(RUN_FOR_TERMINAL),
    image: edit,
    files: edit,
    // The spec's publish tooltip for view is 'You need execute or edit access'; the contract's
    // publish needs edit access on the project, so execute gets 'You need edit access'.
    publish: exec ?? edit,
    share: edit,
  };
}
