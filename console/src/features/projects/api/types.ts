/**
 * The Projects v2 wire types, copied from docs/contracts/projects-v2.md (issue 14), because the
 * API's OpenAPI document does not have these calls yet. When `npm run gen:api` brings them into
 * lib/api/schema.d.ts, these types are replaced by names in lib/api/types.ts (as the other features
 * do) and the calls in this folder move from `untyped` to the typed `api` client.
 */
import type { GrantedLevel as AccessLevel } from '@/lib/api/types';
import type { InsightView } from '@/lib/api/types';

export type ProjectLanguage = 'python' | 'r';
export type PreviewStatus = 'stopped' | 'starting' | 'running' | 'failed';

/** A list row and the details of a project. */
export type ProjectView = {
  id: string;
  name: string;
  description: string;
  language: ProjectLanguage;
  /** The owner's display name. */
  author: string;
  /** The repository owner (derived from the URL on import). */
  repo_author: string | null;
  /** The external HTTPS remote; null for a repository hosted by Ludis. */
  repo_url: string | null;
  hosted: boolean;
  branch: string;
  /** An id of `GET /v2/cluster/dockerimages/list`. */
  image_id: string;
  img_path: string | null;
  img_url: string | null;
  dataset_ids: string[];
  /** The preview container. */
  status: PreviewStatus;
  status_message: string | null;
  access_level: AccessLevel;
  is_owner: boolean;
  /** Applied with kubectl/GitOps. */
  managed: boolean;
  user_uid: string | null;
  user: { first_name: string; last_name: string; photo_path: { original: string | null } } | null;
  shareIcons: { id: string; name: string; photo_path: string | null }[];
  /** Unix seconds. */
  created_at: number;
  updated_at: number;
};

/** The container that logs, web view and terminal need (spec 001 §4 "Run"). */
export type PreviewState = {
  running: boolean;
  status: PreviewStatus;
  /** An opaque handle (the project id while a preview pod runs, else null), never a pod name. */
  container_id: string | null;
  /** The preview through the authenticated app proxy, with a ticket. */
  web_url: string | null;
  port: number | null;
};

export type ProjectFilter = 'all' | 'owned' | 'shared';

export type ProjectsPage = {
  success: boolean;
  projects: ProjectView[];
  page: number;
  page_size: number;
  total: number;
  total_pages: number;
};

export type ProjectDetail = { success: boolean; project: ProjectView; preview: PreviewState };
export type PreviewAnswer = { success: boolean; preview: PreviewState };
export type ProjectAnswer = { success: boolean; project: ProjectView; message?: string };
export type MessageAnswer = { success: boolean; message: string };

export type NewProject = {
  name: string;
  description: string;
  language: ProjectLanguage;
  image_id?: string;
  /** Set: "import project" from this HTTPS remote. Unset: a repository hosted by Ludis. */
  repo_url?: string;
};

export type ProjectChanges = {
  name?: string;
  description?: string;
  image_id?: string;
  img_path?: string | null;
  dataset_ids?: string[];
};

/** One entry of a folder; `sha` is the git blob (file) or tree (dir) id at the branch head. */
export type RepoContentItem = {
  name: string;
  path: string;
  type: 'file' | 'dir';
  sha: string;
  size: number;
  download_url: null;
};

export type FileContent = {
  name: string;
  path: string;
  type: 'file';
  sha: string;
  size: number;
  encoding: 'base64';
  content: string;
};

export type FolderAnswer = { success: boolean; contents: RepoContentItem[] };
export type FileAnswer = { success: boolean; contents: FileContent };

export type CommitRequest = {
  project: string;
  filePath: string;
  /** base64 */
  contents: string;
  message: string;
  /** The blob the editor loaded; absent for a new file that must not exist yet. */
  sha?: string;
};
export type CommitAnswer = { success: boolean; message: string; commit: { sha: string }; content: { path: string; sha: string } };
export type DeleteFileRequest = { project: string; filePath: string; sha?: string; message?: string };

/** `value` is null unless the caller has edit access. */
export type EnvVar = { id: string; key: string; value: string | null; project_uid: string };
export type EnvVarsAnswer = { success: boolean; envVariables: EnvVar[] };
export type EnvVarAnswer = { success: boolean; envVariable: EnvVar };

/** From seeds/ludis-images.json (the administrator's image list). */
export type DockerImage = { id: string; name: string; language: string; purpose: string };
export type DockerImagesAnswer = { success: boolean; dockerImages: DockerImage[] };

export type ProjectAppsAnswer = { success: boolean; projectApps: InsightView[] };

/** The stale-file refusal of commitfile and deletefile (HTTP 409). */
export const STALE_FILE_CODE = 'stale_file';
