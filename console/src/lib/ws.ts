import { refreshAccessToken } from '@/lib/api-client';
import { getSession, tokenExpiresAt } from '@/lib/auth';

/**
 * The console's websockets (docs/contracts/projects-v2.md "Websockets"): same origin, the access
 * token in `Sec-WebSocket-Protocol` (`ludis.v1, bearer.<token>`; the server answers `ludis.v1`),
 * reconnects with exponential backoff, and close codes that say whether to try again.
 */
export const WS_PROTOCOL = 'ludis.v1';
export const BEARER_PROTOCOL_PREFIX = 'bearer.';

/** The server finished the stream (logs: the archive was sent; terminal: the shell exited). */
export const CLOSE_NORMAL = 1000;
/** The caller's access was revoked while connected (checked at connect and every 2 s). */
export const CLOSE_ACCESS_REVOKED = 4403;
/** The caller's session ended while connected: signed out, password changed, account deactivated. */
export const CLOSE_SIGNED_OUT = 4401;

/** A token this close to its expiry is refreshed before a connection uses it. */
const TOKEN_MARGIN_MS = 30_000;

/** What a close code means for the next step. */
export type CloseOutcome = 'ended' | 'revoked' | 'signedOut' | 'refused' | 'retry';

/**
 * 1000: done. 4403: access revoked. 4401: the session ended. Protocol and policy errors (1002, 1003, 1007–1010) and the
 * other application codes (4000–4999) are refusals that another try would repeat. Everything else
 * (1001 going away, 1006 dropped or never opened, 1011–1014 server trouble) is worth another try.
 */
export function classifyClose(code: number): CloseOutcome {
  if (code === CLOSE_NORMAL) return 'ended';
  if (code === CLOSE_ACCESS_REVOKED) return 'revoked';
  if (code === CLOSE_SIGNED_OUT) return 'signedOut';
  if ([1002, 1003, 1007, 1008, 1009, 1010].includes(code) || (code >= 4000 && code <= 4999)) return 'refused';
  return 'retry';
}

export type Backoff = { initialMs: number; maxMs: number; maxAttempts: number };

/** The wait before try `attempt` (1, 2, …): initialMs doubled each time, at most maxMs. */
export function backoffDelay(attempt: number, b: Pick<Backoff, 'initialMs' | 'maxMs'>): number {
  return Math.min(b.maxMs, b.initialMs * 2 ** Math.max(0, attempt - 1));
}

export type StreamState =
  | { status: 'connecting'; attempt: number }
  | { status: 'open' }
  /** Waiting `delayMs` before try `attempt` after the connection dropped with `code`. */
  | { status: 'retrying'; attempt: number; delayMs: number; code: number }
  /** The server closed with 1000. */
  | { status: 'ended'; reason: string }
  | { status: 'revoked' }
  | { status: 'signedOut' }
  | { status: 'refused'; code: number; reason: string }
  /** Dropped, and no (more) tries: `attempts` were made after the first. */
  | { status: 'failed'; code: number; attempts: number }
  /** Closed by this side. */
  | { status: 'closed' };

/** ws:// or wss:// on the console's own origin. */
export function streamUrl(path: string, query: Record<string, string>, location: Pick<Location, 'protocol' | 'host'> = window.location) {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  const search = new URLSearchParams(query).toString();
  return `${scheme}//${location.host}${path}${search ? `?${search}` : ''}`;
}

/** The access token to connect with, refreshed first when it is about to expire. */
async function connectToken(): Promise<string | null> {
  const token = getSession().token;
  if (!token) return null;
  const expires = tokenExpiresAt(token);
  if (expires !== null && expires - Date.now() < TOKEN_MARGIN_MS && (await refreshAccessToken())) {
    return getSession().token;
  }
  return token;
}

export type StreamOptions = {
  /** The API's websocket path, e.g. '/containerLogs'. */
  path: string;
  query: Record<string, string>;
  /** Binary frames arrive as ArrayBuffer (the terminal). */
  binary?: boolean;
  /** Reconnect after a drop; false: report 'failed' at once. */
  reconnect: Backoff | false;
  onMessage: (data: string | ArrayBuffer) => void;
  onState: (state: StreamState) => void;
  /** Each new connection, once open (before its first message). */
  onOpen?: () => void;
};

export type Stream = {
  /** Sends on the open connection; false when there is none. */
  send: (data: string | ArrayBuffer | ArrayBufferView<ArrayBuffer>) => boolean;
  /** Closes for good (state 'closed'). */
  close: () => void;
  /** A fresh connection now, with the tries counted from zero. */
  restart: () => void;
};

/** Opens a websocket stream that reconnects by `reconnect` and reports every state change. */
export function openStream(options: StreamOptions): Stream {
  let socket: WebSocket | null = null;
  let attempts = 0;
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped by every connect and close, so late events of an older socket are ignored. */
  let generation = 0;

  function clearTimer() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  function drop() {
    const old = socket;
    socket = null;
    if (old && old.readyState < 2) old.close(CLOSE_NORMAL);
  }

  function retry(code: number, mine: number) {
    if (mine !== generation) return;
    if (!options.reconnect || attempts >= options.reconnect.maxAttempts) {
      options.onState({ status: 'failed', code, attempts });
      return;
    }
    attempts += 1;
    const delayMs = backoffDelay(attempts, options.reconnect);
    options.onState({ status: 'retrying', attempt: attempts, delayMs, code });
    timer = setTimeout(() => {
      timer = null;
      void connect();
    }, delayMs);
  }

  async function connect() {
    const mine = ++generation;
    options.onState({ status: 'connecting', attempt: attempts });
    const token = await connectToken();
    if (mine !== generation) return;
    if (!token) {
      options.onState({ status: 'refused', code: 4401, reason: 'Not signed in' });
      return;
    }
    let ws: WebSocket;
    try {
      // Read at call time, so a replaced WebSocket (the tests' fake) is the one used.
      ws = new globalThis.WebSocket(streamUrl(options.path, options.query), [WS_PROTOCOL, `${BEARER_PROTOCOL_PREFIX}${token}`]);
    } catch {
      retry(1006, mine);
      return;
    }
    if (options.binary) ws.binaryType = 'arraybuffer';
    socket = ws;
    ws.onopen = () => {
      if (mine !== generation) return;
      attempts = 0;
      options.onState({ status: 'open' });
      options.onOpen?.();
    };
    ws.onmessage = (event: MessageEvent) => {
      if (mine === generation) options.onMessage(event.data as string | ArrayBuffer);
    };
    // An error is always followed by a close, which decides.
    ws.onclose = (event: CloseEvent) => {
      if (mine !== generation) return;
      socket = null;
      switch (classifyClose(event.code)) {
        case 'ended':
          options.onState({ status: 'ended', reason: event.reason });
          return;
        case 'revoked':
          options.onState({ status: 'revoked' });
          return;
        case 'signedOut':
          options.onState({ status: 'signedOut' });
          return;
        case 'refused':
          options.onState({ status: 'refused', code: event.code, reason: event.reason });
          return;
        case 'retry':
          retry(event.code, mine);
      }
    };
  }

  void connect();

  return {
    send(data) {
      if (!socket || socket.readyState !== 1) return false;
      socket.send(data);
      return true;
    },
    close() {
      generation += 1;
      clearTimer();
      drop();
      options.onState({ status: 'closed' });
    },
    restart() {
      generation += 1;
      clearTimer();
      drop();
      attempts = 0;
      void connect();
    },
  };
}
