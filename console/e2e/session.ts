import { type APIRequestContext, type Browser, expect, type Page } from '@playwright/test';

/** What the end-to-end specs share: signing in (page and API) and numbered screenshots. */

export type Credentials = { email: string; password: string };

/** Signs in through the login page and waits for Home. */
export async function signIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('textbox', { name: 'Password' }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByRole('heading', { name: /^Welcome, / })).toBeVisible();
}

/** A browser context of its own for `who`, signed in. */
export async function newSession(browser: Browser, who: Credentials) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, who.email, who.password);
  return page;
}

/** POST /v1/auth/login: the session's answer (token, user). */
export async function apiLogin(request: APIRequestContext, email: string, password: string) {
  const res = await request.post('/v1/auth/login', { data: { user: { email, password } } });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as { token: string; user: { id: string; uid: string } };
}

/**
 * Waits for the toast saying `text`, then for it to close. Toasts sit top right, over buttons a
 * test clicks next, and stay open while the pointer rests on them: the pointer moves away first.
 */
export async function toastSeen(page: Page, text: string) {
  await expect(page.getByText(text).first()).toBeVisible();
  await page.mouse.move(0, 0);
  await expect(page.getByText(text)).toHaveCount(0, { timeout: 15_000 });
}

/** Full-page screenshots into e2e-screenshots/, numbered in order: `<prefix>-01-<name>.png`. */
export function screenshots(prefix: string) {
  let shot = 0;
  return async (page: Page, name: string) => {
    shot += 1;
    await page.screenshot({ path: `e2e-screenshots/${prefix}-${String(shot).padStart(2, '0')}-${name}.png`, fullPage: true });
  };
}

type Headers = Record<string, string>;

/** The seeded Demo organization's id (asked as the superadmin). */
export async function demoOrganization(request: APIRequestContext, headers: Headers): Promise<string> {
  const orgs = await request.get('/v1/organizations/list?page=1&limit=100', { headers });
  expect(orgs.ok()).toBe(true);
  const demo = ((await orgs.json()) as { organizations: { id: string; name: string }[] }).organizations.find((o) => o.name === 'Demo');
  expect(demo, 'the seeded Demo organization').toBeTruthy();
  return demo!.id;
}

/** Switches the features `keys` on for developers of `organization` (another spec may have switched one off). */
export async function enableForDevelopers(request: APIRequestContext, headers: Headers, organization: string, keys: string[]) {
  const flags = await request.get(`/v1/flighting?organization=${organization}`, { headers });
  expect(flags.ok(), await flags.text()).toBe(true);
  type Flag = { key: string; name: string; active: boolean; user_roles: string[] };
  const flightings = ((await flags.json()) as { flightings: Flag[] }).flightings.map((f) =>
    keys.includes(f.key) ? { ...f, active: true, user_roles: [...new Set([...f.user_roles, 'developer'])] } : f,
  );
  const put = await request.put(`/v1/flighting?organization=${organization}`, { headers, data: { flightings } });
  expect(put.ok(), await put.text()).toBe(true);
}
