import type { DockerImage, EnvVar, FileContent, GrantedLevel, LaunchView, PreviewState, ProjectDetail, ProjectView, ProjectsPage, RepoContentItem, SizesAnswer } from '@/lib/api/types';

let next = 0;

/** A project as GET /v2/projects shows it (owned by the caller, hosted, stopped, unless patched). */
export function makeProject(patch: Partial<ProjectView> = {}): ProjectView {
  next += 1;
  return {
    id: patch.id ?? `proj-${next}`,
    name: `Project ${next}`,
    description: 'Sales forecasts',
    language: 'python',
    author: 'Ada Lovelace',
    repo_author: null,
    repo_url: null,
    hosted: true,
    branch: 'main',
    image_id: 'python-data',
    size_id: null,
    img_path: null,
    img_url: null,
    dataset_ids: [],
    status: 'stopped',
    status_message: null,
    access_level: 'edit',
    is_owner: true,
    managed: false,
    user_uid: 'u-1',
    user: { first_name: 'Ada', last_name: 'Lovelace', photo_path: { original: null } },
    shareIcons: [],
    created_at: 1763700000,
    updated_at: 1763700000,
    ...patch,
  };
}

/** A project someone else owns, shared with the caller at `level`. */
export function sharedProject(level: GrantedLevel, patch: Partial<ProjectView> = {}) {
  return makeProject({
    access_level: level,
    is_owner: false,
    user_uid: 'u-9',
    author: 'Grace Hopper',
    user: { first_name: 'Grace', last_name: 'Hopper', photo_path: { original: null } },
    ...patch,
  });
}

/** What Run runs in the test repository (its app.py prints). */
export const LAUNCH: LaunchView = {
  file: 'app.py',
  runner: 'python',
  framework: 'Python',
  command: 'python app.py',
  serves: false,
  candidates: ['app.py', 'main.py', 'streamlit_app.py', 'app.R', 'main.R'],
};

export const STOPPED: PreviewState = { running: false, status: 'stopped', message: null, file: null, container_id: null, web_url: null, port: null, idle: null };

export function running(id: string, web_url = `https://p-${id}.apps.example/?ticket=t1`): PreviewState {
  return { running: true, status: 'running', message: null, file: null, container_id: id, web_url, port: 8501, idle: null };
}

export function detail(project: ProjectView, preview: PreviewState = STOPPED, failure_log: string[] | null = null): ProjectDetail {
  return { success: true, project: { ...project, status: preview.status }, preview, failure_log };
}

export function projectsPage(projects: ProjectView[], extra: { page?: number; total?: number; total_pages?: number } = {}): ProjectsPage {
  return {
    success: true,
    projects,
    page: extra.page ?? 1,
    page_size: 12,
    total: extra.total ?? projects.length,
    total_pages: extra.total_pages ?? 1,
  };
}

/** GET /v2/cluster/sizes/list as the seeded list answers it. */
export const SIZES: SizesAnswer = {
  success: true,
  default: 'medium',
  default_insight: 'small',
  sizes: [
    { id: 'small', purpose: 'Apps', cpu: '250m', cpu_limit: '1', memory: '512Mi', ephemeral_storage: '256Mi', ephemeral_storage_limit: '2Gi' },
    { id: 'medium', purpose: 'Projects', cpu: '500m', cpu_limit: '2', memory: '1Gi', ephemeral_storage: '512Mi', ephemeral_storage_limit: '4Gi' },
    { id: 'large', purpose: 'Training', cpu: '1500m', cpu_limit: '2', memory: '4Gi', ephemeral_storage: '1Gi', ephemeral_storage_limit: '8Gi' },
  ],
};

export const IMAGES: DockerImage[] = [
  { id: 'python-data', name: 'Python 3.12', language: 'python', purpose: 'data stack' },
  { id: 'python-apps', name: 'Python 3.12', language: 'python', purpose: 'app frameworks' },
  { id: 'r-base', name: 'R 4.4', language: 'r', purpose: 'tidyverse' },
];

function b64(text: string) {
  return btoa(String.fromCharCode(...new TextEncoder().encode(text)));
}

export function item(path: string, type: 'file' | 'dir' = 'file', sha = `sha-${path}`): RepoContentItem {
  return { name: path.split('/').at(-1)!, path, type, sha, size: type === 'file' ? 12 : 0, download_url: null };
}

export function fileContent(path: string, text: string, sha = `sha-${path}`): FileContent {
  return { name: path.split('/').at(-1)!, path, type: 'file', sha, size: text.length, encoding: 'base64', content: b64(text) };
}

export function binaryContent(path: string, bytes: number[], sha = `sha-${path}`): FileContent {
  return { name: path.split('/').at(-1)!, path, type: 'file', sha, size: bytes.length, encoding: 'base64', content: btoa(String.fromCharCode(...bytes)) };
}

export function envVar(key: string, value: string | null, id = `ev-${key}`): EnvVar {
  return { id, key, value, project_uid: 'p1' };
}
