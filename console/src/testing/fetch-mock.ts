import { vi } from 'vitest';

/** One request the page made; `at` is `performance.now()` when it was made (the fake clock's, under fake timers). */
export type MockCall = { method: string; url: string; headers: Headers; body: unknown; at: number };
export type MockReply = { status?: number; body?: unknown } | 'network-error';
export type Handler = (call: MockCall) => MockReply | undefined;

/**
 * Replaces `fetch` with a list of handlers tried in order; the first that answers wins.
 * Unanswered requests get 404. Returns the recorded calls.
 */
export function mockFetch(...handlers: Handler[]) {
  const calls: MockCall[] = [];
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    // The API client sends Request objects; other code (uploads to presigned addresses) a URL and init.
    const request = input instanceof Request ? input : undefined;
    const raw = request ? request.url : input instanceof URL ? input.toString() : (input as string);
    // Same-origin addresses are recorded as the path the code asked for ('/v1/users?page=1').
    const url = raw.startsWith(`${window.location.origin}/`) ? raw.slice(window.location.origin.length) : raw;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = new Headers(request?.headers);
    new Headers(init?.headers).forEach((v, k) => headers.set(k, v));
    // A Request built on FormData carries the multipart type with its boundary, written by the
    // platform from the body (as fetch(url, { body: form }) does): not a header the page set.
    const multipart = /^multipart\/form-data; boundary=/.test(request?.headers.get('Content-Type') ?? '');
    if (multipart) headers.delete('Content-Type');
    // Recorded before the body is read, so `calls` keeps the order and `at` the moment of the call.
    const call: MockCall = { method, url, headers, body: init?.body, at: performance.now() };
    calls.push(call);
    if (request && request.body !== null) call.body = multipart ? await request.formData() : await request.text();
    if (typeof call.body === 'string') {
      try {
        call.body = JSON.parse(call.body);
      } catch {
        /* raw */
      }
    }
    for (const h of handlers) {
      const reply = h(call);
      if (reply === 'network-error') throw new TypeError('Failed to fetch');
      if (reply) {
        return new Response(reply.body === undefined ? '' : JSON.stringify(reply.body), {
          status: reply.status ?? 200,
          headers: { 'Content-Type': 'application/json' },
        });
      }
    }
    return new Response(JSON.stringify({ success: false, message: 'not found' }), { status: 404 });
  });
  vi.stubGlobal('fetch', fn);
  return calls;
}

/** A handler for one method and path (query string ignored). */
export function on(method: string, path: string | RegExp, reply: MockReply | ((call: MockCall) => MockReply)): Handler {
  return (call) => {
    const p = call.url.split('?')[0];
    const matches = typeof path === 'string' ? p === path : path.test(p);
    if (call.method !== method || !matches) return undefined;
    return typeof reply === 'function' ? reply(call) : reply;
  };
}
