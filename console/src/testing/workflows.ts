import type { CanvasNode } from '@/features/workflows/utils/design';
import type { RunView, TaskInstance, WorkflowView, WorkflowsPage } from '@/lib/api/types';

let next = 0;

/** A workflow as GET /v2/workflows shows it (the caller's own, visual, ready, unless patched). */
export function makeWorkflow(patch: Partial<WorkflowView> = {}): WorkflowView {
  next += 1;
  return {
    id: `0a1b2c3d-0000-4000-8000-${String(next).padStart(12, '0')}`,
    name: `Workflow ${next}`,
    project_id: 'p1',
    project_name: 'Forecast',
    user_uid: 'u-1',
    user: { first_name: 'Ada', last_name: 'Lovelace', photo_path: { original: null } },
    shareIcons: [],
    schedule: 'None',
    visual: true,
    nodes: [],
    edges: [],
    status: 'ready',
    import_error: null,
    is_paused: false,
    published: true,
    last_run: null,
    last_run_state: null,
    last_run_duration: null,
    dag_file: null,
    revision: null,
    email_bool: false,
    email_list: [],
    email_on: 'failure',
    access_level: 'edit',
    project_access_level: 'edit',
    is_owner: true,
    managed: false,
    created_at: 1763700000,
    updated_at: 1763700000,
    ...patch,
  };
}

/** Shared with the caller at `level` by Grace. */
export function sharedWorkflow(level: WorkflowView['access_level'], patch: Partial<WorkflowView> = {}): WorkflowView {
  return makeWorkflow({
    access_level: level,
    project_access_level: level === 'edit' ? 'edit' : 'view',
    is_owner: false,
    user_uid: 'u-2',
    user: { first_name: 'Grace', last_name: 'Hopper', photo_path: { original: null } },
    ...patch,
  });
}

export function workflowsPage(workflows: WorkflowView[], extra: Partial<WorkflowsPage> = {}): WorkflowsPage {
  return { success: true, workflows, page: 1, page_size: 20, total: workflows.length, total_pages: 1, ...extra };
}

export function makeRun(patch: Partial<RunView> = {}): RunView {
  return { dag_run_id: 'run-1', state: 'running', trigger: 'manual', start_date: 1763700000, end_date: null, duration: null, waiting: null, ...patch };
}

export function makeTask(patch: Partial<TaskInstance> = {}): TaskInstance {
  return {
    task_id: 'extract',
    dag_run_id: 'run-1',
    state: 'success',
    duration: 4.25,
    start_date: 1763700000,
    end_date: 1763700004,
    try_number: 1,
    operator: 'script',
    ...patch,
  };
}

/** A script node as the API sends it (a setting that is not there is left out, never null). */
export function scriptNode(id: string, label: string, fileName = `${label}.py`): CanvasNode {
  return { id, type: 'taskNode', position: { x: 0, y: 0 }, data: { label, taskType: 'script', taskData: { fileName, image: 'python' } } };
}
