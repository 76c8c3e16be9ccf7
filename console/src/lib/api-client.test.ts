import { describe, expect, it } from 'vitest';

import {
  api,
  ApiError,
  DEFAULT_ERROR_MESSAGE,
  GATEWAY_TIMEOUT_MESSAGE,
  NETWORK_ERROR_MESSAGE,
  REFRESH_TOKEN_HEADER,
  unwrap,
} from '@/lib/api-client';
import { getSession } from '@/lib/auth';
import { STORAGE_KEYS } from '@/lib/storage';
import { mockFetch, on } from '@/testing/fetch-mock';
import { signIn } from '@/testing/session';

// Calls through the typed client, as every fetcher makes them.
const getUser = (id: string) => unwrap(api.GET('/v1/users/{id}', { params: { path: { id } } }));
const getUsers = (query?: { page?: number; searchTerm?: string; organization?: string }) =>
  unwrap(api.GET('/v1/users', { params: { query } }));
const getConfig = () => unwrap(api.GET('/v1/config'));
const getMetrics = () => unwrap(api.GET('/v1/metrics'));

describe('api client (spec 001 §8)', () => {
  it('sends the bearer token and returns the body', async () => {
    signIn();
    const calls = mockFetch(on('GET', '/v1/users/1', { body: { success: true, user: { id: 1 } } }));
    await expect(getUser('1')).resolves.toEqual({ success: true, user: { id: 1 } });
    expect(calls[0].headers.get('Authorization')).toBe('Bearer access-1');
  });

  it('on 401 "jwt expired" refreshes silently, stores the new tokens and retries once', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/users', (call) =>
        call.headers.get('Authorization') === 'Bearer access-2'
          ? { body: { success: true, users: [] } }
          : { status: 401, body: { message: 'jwt expired' } },
      ),
      on('POST', '/v1/auth/refreshtoken', { body: { success: true, token: 'access-2', refresh_token: 'refresh-2' } }),
    );
    await expect(getUsers()).resolves.toEqual({ success: true, users: [] });
    expect(calls.map((c) => `${c.method} ${c.url}`)).toEqual([
      'GET /v1/users',
      'POST /v1/auth/refreshtoken',
      'GET /v1/users',
    ]);
    expect(calls[1].headers.get(REFRESH_TOKEN_HEADER)).toBe('refresh-1');
    expect(getSession().token).toBe('access-2');
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBe('access-2');
    expect(window.localStorage.getItem(STORAGE_KEYS.refreshToken)).toBe('refresh-2');
  });

  it('also refreshes on 400 "jwt expired"', async () => {
    signIn();
    let first = true;
    mockFetch(
      on('GET', '/v1/config', () => {
        if (first) {
          first = false;
          return { status: 400, body: { message: 'jwt expired' } };
        }
        return { body: { success: true } };
      }),
      on('POST', '/v1/auth/refreshtoken', { body: { token: 'access-2' } }),
    );
    await expect(getConfig()).resolves.toEqual({ success: true });
  });

  it('retries only once: a second "jwt expired" becomes an error', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v1/users', { status: 401, body: { message: 'jwt expired' } }),
      on('POST', '/v1/auth/refreshtoken', { body: { token: 'access-2' } }),
    );
    await expect(getUsers()).rejects.toMatchObject({ status: 401, message: 'jwt expired' });
    expect(calls.filter((c) => c.url.startsWith('/v1/auth/refreshtoken'))).toHaveLength(1);
    expect(calls.filter((c) => c.url === '/v1/users')).toHaveLength(2);
  });

  it('concurrent expired calls share one refresh', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', /^\/v1\/(users|config)$/, (call) =>
        call.headers.get('Authorization') === 'Bearer access-2' ? { body: {} } : { status: 401, body: { message: 'jwt expired' } },
      ),
      on('POST', '/v1/auth/refreshtoken', { body: { token: 'access-2' } }),
    );
    await Promise.all([getUsers(), getConfig()]);
    expect(calls.filter((c) => c.url === '/v1/auth/refreshtoken')).toHaveLength(1);
  });

  it('a failed refresh signs the user out', async () => {
    signIn();
    mockFetch(
      on('GET', '/v1/users', { status: 401, body: { message: 'jwt expired' } }),
      on('POST', '/v1/auth/refreshtoken', { status: 401, body: { success: false, message: 'invalid refresh token' } }),
    );
    await expect(getUsers()).rejects.toBeInstanceOf(ApiError);
    expect(getSession().token).toBeNull();
    expect(window.localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('a 401 with another message is shown as it is, without a refresh', async () => {
    signIn();
    const calls = mockFetch(on('POST', '/v1/auth/login', { status: 401, body: { success: false, message: 'Invalid email or password' } }));
    await expect(unwrap(api.POST('/v1/auth/login', { body: { user: {} } }))).rejects.toMatchObject({
      message: 'Invalid email or password',
      status: 401,
    });
    expect(calls).toHaveLength(1);
  });

  it('a network failure gives the connection text', async () => {
    mockFetch(() => 'network-error');
    await expect(getConfig()).rejects.toMatchObject({ message: NETWORK_ERROR_MESSAGE, status: 0 });
    expect(NETWORK_ERROR_MESSAGE).toBe('Error connecting server. Please check your internet connection.');
  });

  it('504 gives the external-resource text', async () => {
    mockFetch(on('GET', '/v1/metrics', { status: 504, body: { message: 'upstream' } }));
    await expect(getMetrics()).rejects.toMatchObject({ message: GATEWAY_TIMEOUT_MESSAGE, status: 504 });
    expect(GATEWAY_TIMEOUT_MESSAGE).toBe(
      'Sorry, could not access the external resource to refine the data for your request, please try again later!',
    );
  });

  it('500 shows the server message, or the default', async () => {
    mockFetch(
      on('GET', '/v1/config', { status: 500, body: { success: false, message: 'database is down', code: 'internal' } }),
      on('GET', '/v1/metrics', { status: 500 }),
    );
    await expect(getConfig()).rejects.toMatchObject({ message: 'database is down', code: 'internal' });
    await expect(getMetrics()).rejects.toMatchObject({ message: DEFAULT_ERROR_MESSAGE });
  });

  it('a 200 with success: false is an error carrying the server message', async () => {
    mockFetch(on('PUT', '/v1/users/1', { status: 200, body: { success: false, message: 'Update user failed' } }));
    await expect(unwrap(api.PUT('/v1/users/{id}', { params: { path: { id: '1' } }, body: { user: {} } }))).rejects.toMatchObject({
      message: 'Update user failed',
      status: 200,
    });
  });

  it('encodes query parameters and drops empty ones', async () => {
    const calls = mockFetch(on('GET', '/v1/users', { body: { users: [] } }));
    await getUsers({ page: 1, searchTerm: 'a b', organization: undefined });
    expect(calls[0].url).toBe('/v1/users?page=1&searchTerm=a+b');
  });

  it('escapes path parameters and keeps the code of a refusal', async () => {
    signIn();
    const calls = mockFetch(
      on('GET', '/v2/projects/p%201', { body: { success: true, project: { id: 'p 1' } } }),
      on('POST', '/v2/projects/commitfile', {
        status: 409,
        body: { success: false, code: 'stale_file', message: 'The file changed since you opened it; reload it to see the latest version' },
      }),
    );
    await expect(unwrap(api.GET('/v2/projects/{id}', { params: { path: { id: 'p 1' } } }))).resolves.toEqual({
      success: true,
      project: { id: 'p 1' },
    });
    expect(calls[0].url).toBe('/v2/projects/p%201');
    const body = { project: 'p', filePath: 'app.py', contents: '', message: 'Update app.py' };
    const refused = unwrap(api.POST('/v2/projects/commitfile', { body }));
    await expect(refused).rejects.toMatchObject({ status: 409, code: 'stale_file', message: expect.stringMatching(/^The file changed/) });
    expect(calls[1].body).toEqual(body);
  });
});
