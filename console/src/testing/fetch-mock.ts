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
    const url = typeof input === 'string' ? input : input instanceof URL ? input.toString() : input.url;
    const method = (init?.method ?? 'GET').toUpperCase();
    const headers = new Headers(init?.headers);
    let body: unknown = init?.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        /* raw */
      }
    }
    const call = { method, url, headers, body, at: performance.now() };
    calls.push(call);
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
