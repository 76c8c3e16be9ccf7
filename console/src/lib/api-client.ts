import createClient from 'openapi-fetch';

import type { paths } from '@/lib/api/schema';
import { clearSession, getSession, setSession } from '@/lib/auth';

/** Texts of spec 001 §8 "HTTP handling". */
export const NETWORK_ERROR_MESSAGE = 'Error connecting server. Please check your internet connection.';
export const GATEWAY_TIMEOUT_MESSAGE =
  'Sorry, could not access the external resource to refine the data for your request, please try again later!';
export const DEFAULT_ERROR_MESSAGE = 'Seems like something went wrong!';
export const SESSION_EXPIRED_MESSAGE = 'Your session has expired. Please sign in again.';
export const JWT_EXPIRED = 'jwt expired';

/** The refresh token travels in this header on POST /v1/auth/refreshtoken (spec 001 §7). */
export const REFRESH_TOKEN_HEADER = 'refresh_token';
export const REFRESH_PATH = '/v1/auth/refreshtoken';

/** An answer the console treats as an error: HTTP failure, network failure or `success: false`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly body: unknown;

  constructor(message: string, status: number, code?: string, body?: unknown) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

function field(body: unknown, name: 'message' | 'code'): string | undefined {
  if (body && typeof body === 'object' && name in body) {
    const v = (body as Record<string, unknown>)[name];
    if (typeof v === 'string') return v;
  }
  return undefined;
}

function messageOf(body: unknown): string | undefined {
  return field(body, 'message') || undefined;
}

/**
 * Query strings as the API reads them: form encoding (`a+b`), and a parameter that is undefined,
 * null or empty is left out.
 */
export function serializeQuery(query: Record<string, unknown>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  }
  return search.toString();
}

function pathOf(request: Request): string {
  return new URL(request.url).pathname;
}

/** Sends one request with the session's bearer token (the refresh call carries its own token). */
async function send(request: Request): Promise<Response> {
  const token = getSession().token;
  if (token && pathOf(request) !== REFRESH_PATH && !request.headers.has('Authorization')) {
    const headers = new Headers(request.headers);
    headers.set('Authorization', `Bearer ${token}`);
    request = new Request(request, { headers });
  }
  try {
    // Read at call time, so a replaced `fetch` (the tests' mock) is the one used.
    return await globalThis.fetch(request);
  } catch (e) {
    if (request.signal.aborted) throw e;
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0, 'network_error');
  }
}

async function isJwtExpired(response: Response): Promise<boolean> {
  if (response.status !== 401 && response.status !== 400) return false;
  try {
    return messageOf(JSON.parse(await response.clone().text())) === JWT_EXPIRED;
  } catch {
    return false;
  }
}

/**
 * The transport under the typed client: the bearer token, a network failure as
 * NETWORK_ERROR_MESSAGE, and on "jwt expired" one silent refresh and one retry (spec 001 §8).
 */
async function transport(request: Request): Promise<Response> {
  if (pathOf(request) === REFRESH_PATH) return send(request);
  const retry = request.clone();
  const response = await send(request);
  if (!(await isJwtExpired(response))) return response;
  if (!(await refreshAccessToken())) {
    clearSession();
    let body: unknown = null;
    try {
      body = JSON.parse(await response.text());
    } catch {
      /* not JSON */
    }
    throw new ApiError(SESSION_EXPIRED_MESSAGE, 401, 'session_expired', body);
  }
  return send(retry);
}

/**
 * The one API client, typed by the generated schema (`npm run gen:api`). Every call goes through
 * `unwrap`, which turns the answer into its data or an ApiError.
 */
export const api = createClient<paths>({
  headers: { Accept: 'application/json' },
  querySerializer: serializeQuery,
  fetch: transport,
});

type Answer = { data?: unknown; error?: unknown; response: Response };

/**
 * The data of a call, or an ApiError by spec 001 §8: 504 → GATEWAY_TIMEOUT_MESSAGE, another
 * failure → the server's message (default DEFAULT_ERROR_MESSAGE), and a 2xx body with
 * `success: false` is an error too.
 */
export async function unwrap<A extends Answer>(pending: Promise<A>): Promise<Exclude<A['data'], undefined>> {
  const { data, error, response } = await pending;
  const { status } = response;
  if (status === 504) throw new ApiError(GATEWAY_TIMEOUT_MESSAGE, 504, field(error, 'code'), error);
  if (!response.ok) throw new ApiError(messageOf(error) ?? DEFAULT_ERROR_MESSAGE, status, field(error, 'code'), error);
  if (data && typeof data === 'object' && (data as { success?: unknown }).success === false) {
    throw new ApiError(messageOf(data) ?? DEFAULT_ERROR_MESSAGE, status, field(data, 'code'), data);
  }
  return data as Exclude<A['data'], undefined>;
}

let refreshing: Promise<boolean> | null = null;

/** One refresh at a time: concurrent expired calls wait for the same refresh. */
export function refreshAccessToken(): Promise<boolean> {
  refreshing ??= (async () => {
    const refreshToken = getSession().refreshToken;
    if (!refreshToken) return false;
    try {
      const data = await unwrap(
        api.POST(REFRESH_PATH, {
          params: { header: { [REFRESH_TOKEN_HEADER]: refreshToken } },
          body: { refresh_token: refreshToken },
        }),
      );
      if (!data?.token) return false;
      setSession({ token: data.token, refreshToken: data.refresh_token ?? refreshToken });
      return true;
    } catch {
      return false;
    }
  })().finally(() => {
    refreshing = null;
  });
  return refreshing;
}
