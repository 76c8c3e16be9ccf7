import type { JupyterState, LegacyProjectDetail, LegacyProjectView, LegacyProjectsPage, NotebookDetail, NotebookView } from '@/lib/api/types';

let next = 0;

/** A notebook of project `p1` (active, unless patched). */
export function makeNotebook(patch: Partial<NotebookView> = {}): NotebookView {
  next += 1;
  const name = patch.name ?? `Notebook ${next}`;
  return {
    id: patch.id ?? `nb-${next}`,
    name,
    description: 'Weekly figures',
    project_id: 'p1',
    path: `${name.replace(/\s+/g, '-')}.ipynb`,
    status: 'active',
    created_at: 1763700000,
    updated_at: 1763700000,
    ...patch,
  };
}

/** A legacy project as GET /v1/projects shows it (owned by the caller, a report, unless patched). */
export function makeLegacyProject(patch: Partial<LegacyProjectView> = {}): LegacyProjectView {
  next += 1;
  return {
    id: patch.id ?? `lp-${next}`,
    name: `Project ${next}`,
    description: 'Sales notebooks',
    author: 'Ada Lovelace',
    repo_author: null,
    type: 'report',
    language: 'python',
    size: '5',
    tags: [],
    dataset_ids: ['d1'],
    image_id: 'python-data',
    status: 'stopped',
    status_message: null,
    jupyter_name: null,
    access_level: 'edit',
    is_owner: true,
    user_uid: 'u-1',
    user_id: 'u-1',
    owner_id: 'u-1',
    users: { first_name: 'Ada', last_name: 'Lovelace' },
    notebooks: [],
    shareIcons: [],
    created_at: 1763700000,
    updated_at: 1763700000,
    ...patch,
  };
}

/** A legacy project someone else owns, shared with the caller at `level`. */
export function sharedLegacyProject(level: LegacyProjectView['access_level'], patch: Partial<LegacyProjectView> = {}) {
  return makeLegacyProject({
    access_level: level,
    is_owner: false,
    user_uid: 'u-9',
    user_id: 'u-9',
    owner_id: 'u-9',
    author: 'Grace Hopper',
    users: { first_name: 'Grace', last_name: 'Hopper' },
    ...patch,
  });
}

export function legacyPage(projects: LegacyProjectView[], extra: { page?: number; total?: number; total_pages?: number } = {}): LegacyProjectsPage {
  return {
    success: true,
    projects,
    page: extra.page ?? 1,
    pageSize: 10,
    total: extra.total ?? projects.length,
    total_pages: extra.total_pages ?? 1,
  };
}

export const JUPYTER_STOPPED: JupyterState = { running: false, status: 'stopped', dev_port: null, dev_url: null, idle: null };
export const JUPYTER_STARTING: JupyterState = { running: false, status: 'starting', dev_port: null, dev_url: null, idle: null };
export const JUPYTER_RUNNING: JupyterState = { running: true, status: 'running', dev_port: 8888, dev_url: 'https://p1.apps.example/lab?ticket=t1', idle: { idle_minutes: 60, stops_at: 1795950000 } };

export function legacyDetail(project: LegacyProjectView, jupyter: JupyterState = JUPYTER_STOPPED): LegacyProjectDetail {
  return { success: true, project: { ...project, status: jupyter.status }, jupyter };
}

export function notebookDetail(
  notebook: NotebookView,
  jupyter: JupyterState = JUPYTER_STOPPED,
  access: LegacyProjectView['access_level'] = 'edit',
  iframe: string | null = null,
): NotebookDetail {
  return { success: true, notebook, project: { id: notebook.project_id, name: 'Sales', access_level: access }, jupyter, iframe };
}
