import { describe, expect, it } from 'vitest';

import { getSession, setSession } from '@/lib/auth';
import { backoffDelay, classifyClose, openStream, type StreamState, streamUrl } from '@/lib/ws';
import { advance, installManualClock, settle } from '@/testing/clock';
import { installFakeWebSocket } from '@/testing/fake-websocket';
import { mockFetch, on } from '@/testing/fetch-mock';
import { signIn } from '@/testing/session';

const BACKOFF = { initialMs: 1000, maxMs: 4000, maxAttempts: 3 };

function start(reconnect: typeof BACKOFF | false = BACKOFF) {
  const states: StreamState[] = [];
  const messages: (string | ArrayBuffer)[] = [];
  let opens = 0;
  const stream = openStream({
    path: '/containerLogs',
    query: { id: 'p1', uid: 'u-1' },
    reconnect,
    onMessage: (m) => messages.push(m),
    onState: (s) => states.push(s),
    onOpen: () => {
      opens += 1;
    },
  });
  return { stream, states, messages, opens: () => opens, last: () => states.at(-1) };
}

/** A JWT-shaped token whose `exp` is `exp` (seconds); the signature is not checked here. */
function jwt(exp: number) {
  const part = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${part({ alg: 'HS256' })}.${part({ sub: 'u-1', exp })}.sig`;
}

describe('websocket helper (lib/ws.ts)', () => {
  it('classifies close codes: done, revoked, signed out, refused or worth another try', () => {
    expect(classifyClose(1000)).toBe('ended');
    expect(classifyClose(4403)).toBe('revoked');
    expect(classifyClose(4401)).toBe('signedOut');
    for (const code of [1002, 1003, 1007, 1008, 1009, 1010, 4000, 4400, 4404]) expect(classifyClose(code)).toBe('refused');
    for (const code of [1001, 1005, 1006, 1011, 1012, 1013, 1014]) expect(classifyClose(code)).toBe('retry');
  });

  it('waits 1 s, 2 s, 4 s … between tries, at most the maximum', () => {
    const b = { initialMs: 1000, maxMs: 30_000 };
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => backoffDelay(n, b))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });

  it('builds ws:// or wss:// on the console origin', () => {
    expect(streamUrl('/containerLogs', { id: 'a b', uid: 'u' }, { protocol: 'http:', host: 'h:1' })).toBe('ws://h:1/containerLogs?id=a+b&uid=u');
    expect(streamUrl('/terminalConnection', { id: 'p' }, { protocol: 'https:', host: 'ludis.example' })).toBe(
      'wss://ludis.example/terminalConnection?id=p',
    );
  });

  it('connects with the token in Sec-WebSocket-Protocol and passes frames on', async () => {
    signIn();
    installManualClock();
    const sockets = installFakeWebSocket();
    const s = start();
    await settle(() => expect(sockets.all).toHaveLength(1));
    const ws = sockets.latest();
    expect(ws.url).toBe(`ws://${window.location.host}/containerLogs?id=p1&uid=u-1`);
    expect(ws.protocols).toEqual(['ludis.v1', 'bearer.access-1']);
    expect(s.last()).toEqual({ status: 'connecting', attempt: 0 });
    ws.accept();
    expect(s.last()).toEqual({ status: 'open' });
    expect(s.opens()).toBe(1);
    ws.receive('line 1');
    expect(s.messages).toEqual(['line 1']);
    expect(s.stream.send('x')).toBe(true);
    expect(ws.sent).toEqual(['x']);
  });

  it('reconnects after a drop with backoff, and gives up after the last try', async () => {
    signIn();
    installManualClock();
    const sockets = installFakeWebSocket();
    const s = start();
    await settle(() => expect(sockets.all).toHaveLength(1));
    sockets.latest().accept();
    sockets.latest().fail();
    expect(s.last()).toEqual({ status: 'retrying', attempt: 1, delayMs: 1000, code: 1006 });
    expect(s.stream.send('x')).toBe(false);
    await advance(999);
    expect(sockets.all).toHaveLength(1);
    await advance(1);
    expect(sockets.all).toHaveLength(2);
    // Refused before opening (1006 again): the next wait doubles.
    sockets.latest().fail();
    expect(s.last()).toMatchObject({ status: 'retrying', attempt: 2, delayMs: 2000 });
    await advance(2000);
    expect(sockets.all).toHaveLength(3);
    sockets.latest().serverClose(1011);
    expect(s.last()).toMatchObject({ status: 'retrying', attempt: 3, delayMs: 4000, code: 1011 });
    await advance(4000);
    expect(sockets.all).toHaveLength(4);
    sockets.latest().fail();
    expect(s.last()).toEqual({ status: 'failed', code: 1006, attempts: 3 });
    await advance(60_000);
    expect(sockets.all).toHaveLength(4);
  });

  it('counts the tries from zero again once a connection opens', async () => {
    signIn();
    installManualClock();
    const sockets = installFakeWebSocket();
    const s = start();
    await settle(() => expect(sockets.all).toHaveLength(1));
    sockets.latest().fail();
    await advance(1000);
    sockets.latest().accept();
    sockets.latest().fail();
    expect(s.last()).toMatchObject({ status: 'retrying', attempt: 1, delayMs: 1000 });
    await advance(1000);
    expect(s.opens()).toBe(1);
    sockets.latest().accept();
    expect(s.opens()).toBe(2);
  });

  it('stops on 1000 (ended), 4403 (access revoked), 4401 (signed out) and refusals', async () => {
    signIn();
    installManualClock();
    const sockets = installFakeWebSocket();
    for (const [code, state] of [
      [1000, { status: 'ended', reason: 'bye' }],
      [4403, { status: 'revoked' }],
      [4401, { status: 'signedOut' }],
      [1008, { status: 'refused', code: 1008, reason: 'bye' }],
    ] as const) {
      const before = sockets.all.length;
      const s = start();
      await settle(() => expect(sockets.all).toHaveLength(before + 1));
      sockets.latest().accept();
      sockets.latest().serverClose(code, 'bye');
      expect(s.last()).toEqual(state);
      await advance(60_000);
      expect(sockets.all).toHaveLength(before + 1);
    }
  });

  it('without a reconnect policy reports the drop as failed at once', async () => {
    signIn();
    installManualClock();
    const sockets = installFakeWebSocket();
    const s = start(false);
    await settle(() => expect(sockets.all).toHaveLength(1));
    sockets.latest().accept();
    sockets.latest().fail();
    expect(s.last()).toEqual({ status: 'failed', code: 1006, attempts: 0 });
    await advance(60_000);
    expect(sockets.all).toHaveLength(1);
  });

  it('close() closes with 1000 and ignores what the old socket says afterwards; restart() connects anew', async () => {
    signIn();
    installManualClock();
    const sockets = installFakeWebSocket();
    const s = start();
    await settle(() => expect(sockets.all).toHaveLength(1));
    const first = sockets.latest();
    first.accept();
    s.stream.restart();
    expect(first.closedByClient).toEqual({ code: 1000, reason: undefined });
    await settle(() => expect(sockets.all).toHaveLength(2));
    first.receive('late');
    expect(s.messages).toEqual([]);
    sockets.latest().accept();
    s.stream.close();
    expect(s.last()).toEqual({ status: 'closed' });
    expect(sockets.latest().closedByClient).toEqual({ code: 1000, reason: undefined });
    await advance(60_000);
    expect(sockets.all).toHaveLength(2);
  });

  it('refreshes an access token that is about to expire before connecting', async () => {
    installManualClock();
    setSession({ token: jwt(Math.floor(Date.now() / 1000) + 5), refreshToken: 'refresh-1' });
    const calls = mockFetch(on('POST', '/v1/auth/refreshtoken', { body: { success: true, token: 'fresh-token', refresh_token: 'refresh-2' } }));
    const sockets = installFakeWebSocket();
    start();
    await settle(() => expect(sockets.all).toHaveLength(1));
    expect(calls.map((c) => c.url)).toEqual(['/v1/auth/refreshtoken']);
    expect(sockets.latest().protocols).toEqual(['ludis.v1', 'bearer.fresh-token']);
    expect(getSession().refreshToken).toBe('refresh-2');
  });

  it('keeps a token that is still valid', async () => {
    installManualClock();
    const token = jwt(Math.floor(Date.now() / 1000) + 600);
    setSession({ token, refreshToken: 'refresh-1' });
    const calls = mockFetch();
    const sockets = installFakeWebSocket();
    start();
    await settle(() => expect(sockets.all).toHaveLength(1));
    expect(calls).toEqual([]);
    expect(sockets.latest().protocols).toEqual(['ludis.v1', `bearer.${token}`]);
  });

  it('without a session refuses instead of connecting', async () => {
    installManualClock();
    const sockets = installFakeWebSocket();
    const s = start();
    await settle(() => expect(s.last()).toEqual({ status: 'refused', code: 4401, reason: 'Not signed in' }));
    expect(sockets.all).toHaveLength(0);
  });
});
