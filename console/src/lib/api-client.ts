import type { RefreshResponse } from '@/lib/api/types';
import { clearSession, getSession, setSession } from '@/lib/auth';

/** Texts of spec 001 §8 "HTTP handling". */
export const NETWORK_ERROR_MESSAGE = 'Error connecting server. Please check your internet connection.';
export const GATEWAY_TIMEOUT_MESSAGE =
  'Sorry, could not access the external resource to refine the data for your request, please try again later!';
export const DEFAULT_ERROR_MESSAGE = 'Seems like something went wrong!';
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

export type QueryParams = Record<string, string | number | boolean | null | undefined>;

export type RequestOptions = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  params?: QueryParams;
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Send no access token (the refresh call carries its own). */
  anonymous?: boolean;
};

export function buildUrl(path: string, params?: QueryParams): string {
  if (!params) return path;
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') search.set(k, String(v));
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

function messageOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'message' in body) {
    const m = (body as { message: unknown }).message;
    if (typeof m === 'string' && m) return m;
  }
  return undefined;
}

function codeOf(body: unknown): string | undefined {
  if (body && typeof body === 'object' && 'code' in body) {
    const c = (body as { code: unknown }).code;
    if (typeof c === 'string') return c;
  }
  return undefined;
}

async function send(path: string, options: RequestOptions): Promise<{ res: Response; body: unknown }> {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  const token = getSession().token;
  if (token && !options.anonymous && !headers.Authorization) headers.Authorization = `Bearer ${token}`;
  let payload: BodyInit | undefined;
  if (options.body instanceof FormData) {
    // multipart/form-data: the browser writes the Content-Type with its boundary.
    payload = options.body;
  } else if (options.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    payload = JSON.stringify(options.body);
  }
  let res: Response;
  try {
    res = await fetch(buildUrl(path, options.params), {
      method: options.method ?? 'GET',
      headers,
      body: payload,
      signal: options.signal,
    });
  } catch (e) {
    if (options.signal?.aborted) throw e;
    throw new ApiError(NETWORK_ERROR_MESSAGE, 0, 'network_error');
  }
  return { res, body: await readBody(res) };
}

let refreshing: Promise<boolean> | null = null;

/** One refresh at a time: concurrent expired calls wait for the same refresh. */
export function refreshAccessToken(): Promise<boolean> {
  refreshing ??= (async () => {
    const refreshToken = getSession().refreshToken;
    if (!refreshToken) return false;
    try {
      const { res, body } = await send(REFRESH_PATH, {
        method: 'POST',
        headers: { [REFRESH_TOKEN_HEADER]: refreshToken },
        anonymous: true,
        body: { refresh_token: refreshToken },
      });
      const data = body as RefreshResponse | null;
      if (!res.ok || !data || data.success === false || !data.token) return false;
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

function isJwtExpired(status: number, body: unknown) {
  return (status === 401 || status === 400) && messageOf(body) === JWT_EXPIRED;
}

/**
 * Calls the API and applies spec 001 §8: network failures, a silent refresh and one retry on
 * "jwt expired", the 504 text, the server's message for other failures, and `success: false`
 * treated as an error.
 */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  let { res, body } = await send(path, options);

  if (isJwtExpired(res.status, body) && path !== REFRESH_PATH) {
    const refreshed = await refreshAccessToken();
    if (!refreshed) {
      clearSession();
      throw new ApiError('Your session has expired. Please sign in again.', 401, 'session_expired', body);
    }
    ({ res, body } = await send(path, options));
  }

  if (res.status === 504) throw new ApiError(GATEWAY_TIMEOUT_MESSAGE, 504, codeOf(body), body);
  if (!res.ok) throw new ApiError(messageOf(body) ?? DEFAULT_ERROR_MESSAGE, res.status, codeOf(body), body);
  if (body && typeof body === 'object' && (body as { success?: unknown }).success === false) {
    throw new ApiError(messageOf(body) ?? DEFAULT_ERROR_MESSAGE, res.status, codeOf(body), body);
  }
  return body as T;
}

export const api = {
  get: <T>(path: string, params?: QueryParams, signal?: AbortSignal) => apiRequest<T>(path, { params, signal }),
  post: <T>(path: string, body?: unknown, params?: QueryParams) =>
    apiRequest<T>(path, { method: 'POST', body, params }),
  /** A multipart/form-data POST (file uploads such as the report import). */
  postForm: <T>(path: string, form: FormData) => apiRequest<T>(path, { method: 'POST', body: form }),
  put: <T>(path: string, body?: unknown, params?: QueryParams) =>
    apiRequest<T>(path, { method: 'PUT', body, params }),
  delete: <T>(path: string, params?: QueryParams) => apiRequest<T>(path, { method: 'DELETE', params }),
};
