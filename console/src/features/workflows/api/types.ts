/**
 * HAND-WRITTEN (issue 15): the workflow calls of docs/contracts/workflows.md, written before the
 * API's OpenAPI document has them. `WorkflowPaths` has the shape openapi-typescript writes into
 * `lib/api/schema.d.ts`, so the workflows client (`api/client.ts`) is typed exactly as `api` is.
 * Once `npm run gen:api` brings these paths, swap: each `workflowsApi.X(...)` becomes `api.X(...)`,
 * the entity types below become schema names in `lib/api/types.ts`, and this file goes.
 */
import type { AccessLevel } from '@/lib/api/types';

export type WorkflowStatus = 'unpublished' | 'initializing' | 'ready' | 'broken';
export type RunState = 'queued' | 'running' | 'success' | 'failed';
export type TaskState = RunState | 'upstream_failed' | 'skipped';
export type EmailOn = 'both' | 'failure' | 'success';
export type RunTrigger = 'schedule' | 'manual' | 'rerun';
export type TaskType = 'script' | 'upload';
export type WorkflowFilter = 'all' | 'owned' | 'shared';
/** A level the caller holds on a visible workflow. */
export type WorkflowLevel = Exclude<AccessLevel, 'none'>;

export type ScriptTaskData = { fileName: string; image: string; installScript?: string | null };
export type UploadTaskData = { fileName: string; datasetID: string; datasetName: string; datasetDestination: string; datasetPath: string };

/** A designer node's data (spec 001 §3): empty (`taskType: null`) until configured. */
export type NodeData = { label: string; taskType: TaskType | null; taskData?: ScriptTaskData | UploadTaskData | null };
export type DesignerNode = { id: string; type: 'taskNode'; position: { x: number; y: number }; data: NodeData };
export type DesignerEdge = { id: string; source: string; target: string };

export type WorkflowUser = { first_name: string; last_name: string; photo_path?: { original?: string | null } | null };
export type ShareIcon = { id: string; name: string; photo_path?: unknown };

export type WorkflowView = {
  id: string;
  name: string;
  project_id: string;
  project_name: string | null;
  user_uid: string | null;
  user: WorkflowUser | null;
  shareIcons: ShareIcon[];
  schedule: string;
  visual: boolean;
  nodes: DesignerNode[];
  edges: DesignerEdge[];
  status: WorkflowStatus;
  import_error: string | null;
  is_paused: boolean;
  published: boolean;
  last_run: number | null;
  last_run_state: RunState | null;
  last_run_duration: number | null;
  dag_file: string | null;
  revision: string | null;
  email_bool: boolean;
  email_list: string[];
  email_on: EmailOn;
  access_level: WorkflowLevel;
  project_access_level: WorkflowLevel | null;
  is_owner: boolean;
  managed: boolean;
  created_at: number;
  updated_at: number;
};

export type DagInfo = {
  dag_id: string;
  is_paused: boolean;
  schedule: string;
  tasks: { task_id: string; operator: string; upstream: string[] }[];
  revision: string | null;
  import_error: string | null;
};

export type RunView = {
  dag_run_id: string;
  state: RunState;
  trigger: RunTrigger;
  start_date: number | null;
  end_date: number | null;
  duration: number | null;
};

export type TaskInstance = {
  task_id: string;
  dag_run_id: string;
  state: TaskState;
  duration: number | null;
  start_date: number | null;
  end_date: number | null;
  try_number: number;
  operator: string;
};

export type TaskLog = {
  dag_run_id: string;
  task_id: string;
  try_number: number;
  state: TaskState;
  content: string;
  archived: boolean;
};

export type VisualDesign = {
  nodes: DesignerNode[];
  edges: DesignerEdge[];
  schedule: string;
  email_bool: boolean;
  email_list: string[];
  email_on: EmailOn;
};

type Ok = { success: true };
type Message = Ok & { message: string };
export type WorkflowsPage = Ok & { workflows: WorkflowView[]; page: number; page_size: number; total: number; total_pages: number };
export type WorkflowAnswer = Ok & { workflow: WorkflowView };
export type WorkflowMessage = WorkflowAnswer & { message: string };
export type RunsPage = Ok & { runs: RunView[]; page: number; total: number; total_pages: number };

export type WorkflowsQueryParams = {
  filter?: WorkflowFilter;
  page?: number;
  pageSize?: number;
  search?: string;
  projectId?: string;
  dags?: boolean;
};
export type CreateWorkflowBody = { project_id: string; name: string; schedule?: string; visual_workflow: boolean };
export type UpdateWorkflowBody = { name?: string; email_bool?: boolean; email_list?: string[]; email_on?: EmailOn };
export type SaveWorkflowBody = {
  nodes: DesignerNode[];
  edges: DesignerEdge[];
  email_on_success: boolean;
  email_on_failure: boolean;
  email_list: string[];
  email_bool: boolean;
};
export type ScheduleBody = { value: string; project_id: string; var_id?: string };
export type MarkTaskBody = { state: 'success' | 'failed'; dagRunId: string; taskId: string };
export type ClearTasksBody = { task_ids: string[]; dag_run_id: string; include_downstream: boolean };
export type ManualPublishBody = { project_id: string; file_name: string; files: string[] };

/* ---- The paths, in openapi-typescript's shape ---- */

type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type Params<Path, Query> = { query?: Query; header?: never; cookie?: never } & ([Path] extends [never] ? { path?: never } : { path: Path });
/** One operation: its parameters, its JSON body (or none) and its 200 answer. */
type Op<Path, Query, Body, Answer> = {
  parameters: Params<Path, Query>;
  requestBody: { content: { 'application/json': Body } };
  responses: { 200: Json<Answer>; 201: Json<Answer> };
};
type NoBodyOp<Path, Query, Answer> = {
  parameters: Params<Path, Query>;
  requestBody?: never;
  responses: { 200: Json<Answer>; 201: Json<Answer> };
};
type Unused = {
  get?: never;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
};
type Id = { id: string };

export type WorkflowPaths = {
  '/v2/workflows': Omit<Unused, 'get' | 'post'> & {
    get: NoBodyOp<never, WorkflowsQueryParams, WorkflowsPage>;
    post: Op<never, never, CreateWorkflowBody, WorkflowMessage>;
  };
  '/v2/workflows/workflowdata/': Omit<Unused, 'post'> & { post: Op<never, never, { workflow_ids: string[] }, Ok & { workflows: WorkflowView[] }> };
  '/v2/workflows/{id}': Omit<Unused, 'get' | 'put' | 'patch'> & {
    get: NoBodyOp<Id, never, WorkflowAnswer>;
    put: Op<Id, never, UpdateWorkflowBody, WorkflowMessage>;
    patch: Op<Id, never, { paused: boolean }, WorkflowAnswer>;
  };
  '/v2/workflows/daginfo/{id}': Omit<Unused, 'get'> & { get: NoBodyOp<Id, never, Ok & { dag: DagInfo }> };
  '/v2/workflows/visual/{id}': Omit<Unused, 'get'> & { get: NoBodyOp<Id, never, Ok & VisualDesign> };
  '/v2/workflows/run/{id}': Omit<Unused, 'post'> & { post: NoBodyOp<Id, never, Message & { dag_run_id: string }> };
  '/v2/workflows/runs/{id}': Omit<Unused, 'get'> & { get: NoBodyOp<Id, { page?: number; limit?: number }, RunsPage> };
  '/v2/workflows/tasks/{id}/{dagRunId}': Omit<Unused, 'get'> & {
    get: NoBodyOp<{ id: string; dagRunId: string }, { page?: number; limit?: number }, Ok & { task_instances: TaskInstance[]; total: number }>;
  };
  '/v2/workflows/tasks/{id}/{dagRunId}/{taskId}/{tryNumber}': Omit<Unused, 'get'> & {
    get: NoBodyOp<{ id: string; dagRunId: string; taskId: string; tryNumber: number }, never, Ok & { log: TaskLog | null; message?: string }>;
  };
  '/v2/workflows/latest/{id}': Omit<Unused, 'post'> & { post: Op<Id, never, { limit: number | 'all' }, Ok & { logs: TaskLog[] }> };
  '/v2/workflows/mark/{id}': Omit<Unused, 'patch'> & { patch: Op<Id, never, MarkTaskBody, Message> };
  '/v2/workflows/clear/{id}': Omit<Unused, 'post'> & { post: Op<Id, never, ClearTasksBody, Message> };
  '/v2/workflows/schedule/{id}': Omit<Unused, 'post'> & { post: Op<Id, never, ScheduleBody, Message & { schedule: string }> };
  '/v2/workflows/save/{id}': Omit<Unused, 'post'> & { post: Op<Id, never, SaveWorkflowBody, WorkflowMessage> };
  '/v2/workflows/visual/publish/{id}': Omit<Unused, 'post'> & { post: Op<Id, never, { project_id: string }, WorkflowMessage> };
  '/v2/workflows/publish/{id}': Omit<Unused, 'post'> & { post: Op<Id, never, ManualPublishBody, WorkflowMessage> };
  '/v2/workflows/delete/{id}': Omit<Unused, 'post'> & { post: NoBodyOp<Id, never, Message> };
};
