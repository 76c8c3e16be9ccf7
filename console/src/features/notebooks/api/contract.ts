/**
 * HAND-TYPED, TEMPORARY: the legacy project and notebook calls of docs/contracts/notebooks.md,
 * typed by hand while api/openapi.json does not document them yet. `notebookApi` is the console's
 * one client (`api`, lib/api-client.ts: same transport, token and error handling) seen through
 * these paths. When the document gains `/v1/projects…`, `/v1/notebook…` and `getJupyterDevUrl`,
 * `npm run gen:api`, name the schemas in lib/api/types.ts, use `api` in the fetchers and delete
 * this file.
 */
import type { Client } from 'openapi-fetch';

import { api } from '@/lib/api-client';
import type { components } from '@/lib/api/schema';

type ErrorBody = components['schemas']['ErrorBody'];

export type LegacyLanguage = 'python' | 'r';
export type JupyterStatus = 'stopped' | 'starting' | 'running' | 'failed';
export type LegacyAccessLevel = 'view' | 'execute' | 'edit';

export type NotebookView = {
  id: string;
  name: string;
  description: string;
  project_id: string;
  /** The `.ipynb` file in the project's repository. */
  path: string;
  status: string;
  created_at: number;
  updated_at: number;
};

export type LegacyProjectView = {
  id: string;
  name: string;
  description: string;
  author: string;
  repo_author: string | null;
  type: string;
  language: LegacyLanguage;
  size: string;
  tags: string[];
  dataset_ids: string[];
  image_id: string;
  status: JupyterStatus;
  status_message: string | null;
  jupyter_name: string | null;
  access_level: LegacyAccessLevel;
  is_owner: boolean;
  user_uid: string | null;
  user_id: string | null;
  owner_id: string | null;
  users: { first_name: string; last_name: string } | null;
  notebooks: NotebookView[];
  shareIcons: { id: string; name: string; photo_path: string | null }[];
  created_at: number;
  updated_at: number;
};

export type JupyterState = { running: boolean; status: JupyterStatus; dev_port: number | null; dev_url: string | null };

export type LegacyProjectsPage = {
  success: boolean;
  projects: LegacyProjectView[];
  page: number;
  pageSize: number;
  total: number;
  total_pages: number;
};
export type LegacyProjectDetail = { success: boolean; project: LegacyProjectView; jupyter: JupyterState };
export type LegacyProjectAnswer = { success: boolean; message: string; project: LegacyProjectView };
export type NewLegacyProject = {
  name: string;
  description: string;
  language: LegacyLanguage;
  dataset_ids: string[];
  type?: string;
  size?: string;
  author?: string;
  tags?: string[];
};
export type LegacyProjectChanges = {
  description?: string;
  type?: string;
  size?: string;
  author?: string;
  dataset_ids?: string[];
  tags?: string[];
};
export type ProjectTemplate = { id: string; name: string; description: string; language: LegacyLanguage; notebooks: string[]; datasets: string[] };
export type ProjectTemplates = { success: boolean; templates: ProjectTemplate[] };

export type NotebookList = { success: boolean; notebooks: NotebookView[] };
export type NotebookDetail = {
  success: boolean;
  notebook: NotebookView;
  project: { id: string; name: string; access_level: LegacyAccessLevel };
  jupyter: JupyterState;
  /** The notebook in JupyterLab (a one-use ticket) while it runs and the caller may execute; else null. */
  iframe: string | null;
};
export type NotebookAnswer = { success: boolean; message: string; notebook: NotebookView };
export type NewNotebook = { name: string; description: string; project_id: string };
export type NotebookImport =
  | { notebook: { project_id: string; name?: string; description?: string }; importNotebook: string }
  | { notebook: { project_id: string; name?: string; description?: string }; file: { name: string; content: string } };
export type NotebookChanges = { name?: string; description?: string };
export type NotebookOpen = { success: boolean; iframe: string | null; jupyter: JupyterState };
export type NotebookPreview = { success: boolean; html: string };
export type NotebookCommit = { success: boolean; message: string; commit: { sha: string } | null };
export type JupyterDevUrl = { success: boolean; dev_port: number | null; dev_url: string | null };
export type Done = components['schemas']['Done'];

/* ---- The paths, in openapi-typescript's shape ---- */

type Json<T> = { headers: { [name: string]: unknown }; content: { 'application/json': T } };
type Params<Q, P> = ([Q] extends [never] ? { query?: never } : { query?: Q }) &
  ([P] extends [never] ? { path?: never } : { path: P }) & { header?: never; cookie?: never };
type Operation<R, P = never, Q = never, B = never> = { parameters: Params<Q, P> } & ([B] extends [never]
  ? { requestBody?: never }
  : { requestBody: { content: { 'application/json': B } } }) & { responses: { 200: Json<R>; 201: Json<R>; default: Json<ErrorBody> } };
type NoPathItem = {
  parameters: { query?: never; header?: never; path?: never; cookie?: never };
  get?: never;
  put?: never;
  post?: never;
  delete?: never;
  options?: never;
  head?: never;
  patch?: never;
  trace?: never;
};
type PathItem<Ops> = Omit<NoPathItem, keyof Ops> & Ops;

type Id = { id: string };
type ListQuery = { page?: number; pageSize?: number; sortOperator?: 'asc' | 'desc'; orderBy?: 'name' | 'created_at' | 'updated_at' };

export type NotebookPaths = {
  '/v1/projects': PathItem<{
    get: Operation<LegacyProjectsPage, never, ListQuery>;
    post: Operation<LegacyProjectAnswer, never, never, { project: NewLegacyProject }>;
  }>;
  '/v1/projects/share/list': PathItem<{ get: Operation<LegacyProjectsPage, never, { page?: number; pageSize?: number }> }>;
  '/v1/projects/ludisproject': PathItem<{
    get: Operation<ProjectTemplates>;
    post: Operation<LegacyProjectAnswer, never, never, { template: string; name?: string }>;
  }>;
  '/v1/projects/{id}': PathItem<{
    get: Operation<LegacyProjectDetail, Id>;
    put: Operation<LegacyProjectAnswer, Id, never, { project: LegacyProjectChanges }>;
    delete: Operation<Done, Id>;
  }>;
  '/v1/notebook': PathItem<{ post: Operation<NotebookAnswer, never, never, { notebook: NewNotebook }> }>;
  '/v1/notebook/import': PathItem<{ post: Operation<NotebookAnswer, never, never, NotebookImport> }>;
  '/v1/notebook/{id}': PathItem<{
    get: Operation<NotebookList, Id>;
    put: Operation<NotebookAnswer, Id, never, { notebook: NotebookChanges }>;
    delete: Operation<Done, Id>;
  }>;
  '/v1/notebook/detail/{id}': PathItem<{ get: Operation<NotebookDetail, Id> }>;
  '/v1/notebook/{id}/open': PathItem<{ post: Operation<NotebookOpen, Id> }>;
  '/v1/notebook/{id}/preview': PathItem<{ post: Operation<NotebookPreview, Id> }>;
  '/v1/notebook/{id}/commit': PathItem<{ post: Operation<NotebookCommit, Id, never, { message: string }> }>;
  '/v1/users/{userId}/getJupyterDevUrl': PathItem<{ put: Operation<JupyterDevUrl, { userId: string }, never, { project_id: string }> }>;
};

/** The console's client, typed by the contract's paths (see above: temporary). */
export const notebookApi = api as unknown as Client<NotebookPaths>;
