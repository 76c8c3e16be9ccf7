import { type APIRequestContext, expect } from '@playwright/test';

/**
 * What the end-to-end specs of apps do through the API (the steps a person does in the console
 * are the specs' own): projects with files, sharing an app, and leaving the node as they found it
 * (every preview stopped, every app and project deleted: the node has 2 cores for everyone).
 */

type Headers = Record<string, string>;
const json = (token: string): Headers => ({ Authorization: `Bearer ${token}` });

/** The image of each language (seeds/ludis-images.json). */
export const IMAGES = { python: 'python-3.11', r: 'r-4.2' } as const;
export type Language = keyof typeof IMAGES;

/** POST /v2/projects: a project hosted by Ludis; its id. */
export async function createProject(request: APIRequestContext, token: string, name: string, language: Language): Promise<string> {
  const res = await request.post('/v2/projects', {
    headers: json(token),
    data: { project: { name, description: 'Made by the end-to-end tests', language, image_id: IMAGES[language] } },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { project: { id: string } }).project.id;
}

/** POST /v2/projects/commitfile: `path` with `text` at the branch head (over the version there). */
export async function commitFile(request: APIRequestContext, token: string, project: string, path: string, text: string) {
  const root = await request.post(`/v2/projects/repocontents/${project}`, { headers: json(token), data: { project, path: '' } });
  expect(root.ok(), await root.text()).toBe(true);
  const items = ((await root.json()) as { contents: { path: string; sha: string }[] }).contents;
  const sha = items.find((i) => i.path === path)?.sha;
  const res = await request.post('/v2/projects/commitfile', {
    headers: json(token),
    data: { project, filePath: path, contents: Buffer.from(text).toString('base64'), message: `${path} from the tests`, ...(sha ? { sha } : {}) },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** POST /v1/applications/share: `email` gets `level` on app `id`. */
export async function shareApp(request: APIRequestContext, token: string, id: string, email: string, level: 'view' | 'execute' | 'edit') {
  const res = await request.post('/v1/applications/share', {
    headers: json(token),
    data: { share: { entity_id: id, entity_type: 'Application', shares: [{ share_type: 'share', email, access_level: level }] } },
  });
  expect(res.ok(), await res.text()).toBe(true);
}

/** The id of the newest app named `name` the caller sees. */
export async function appNamed(request: APIRequestContext, token: string, name: string): Promise<string> {
  const res = await request.get(`/v1/applications/insights?page=1&pageSize=12&filter=all&search=${encodeURIComponent(name)}`, { headers: json(token) });
  expect(res.ok(), await res.text()).toBe(true);
  const app = ((await res.json()) as { applications: { id: string; name: string }[] }).applications.find((a) => a.name === name);
  expect(app, `the app ${name}`).toBeTruthy();
  return app!.id;
}

/** Stops the project's preview and deletes the apps and the project (what exists of them). */
export async function cleanUp(request: APIRequestContext, token: string, project: string | null, apps: string[]) {
  for (const id of apps) await request.delete(`/v1/applications/${id}`, { headers: json(token) });
  if (project) {
    await request.post(`/v2/projects/stop/${project}`, { headers: json(token) });
    await request.delete(`/v2/projects/${project}`, { headers: json(token) });
  }
}
