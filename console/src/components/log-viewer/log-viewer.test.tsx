import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { keepLast, parseLogFrame } from '@/components/log-viewer/log-protocol';
import { LogViewer } from '@/components/log-viewer/log-viewer';
import { advance, installManualClock, settle } from '@/testing/clock';
import { installFakeWebSocket } from '@/testing/fake-websocket';
import { renderInProviders } from '@/testing/render';
import { signIn } from '@/testing/session';


const statusLine = () => screen.getByRole('status', { name: 'Log status' });
const log = () => screen.getByRole('log', { name: 'Container log' });

async function mount(running = true) {
  signIn();
  installManualClock();
  const sockets = installFakeWebSocket();
  const view = renderInProviders(<LogViewer id="p1" uid="u-1" running={running} />);
  await settle(() => expect(sockets.all).toHaveLength(1));
  return { sockets, ...view };
}

describe('log protocol (components/log-viewer/log-protocol.ts)', () => {
  it('reads status frames, lines, and JSON lines that are not status frames', () => {
    expect(parseLogFrame('{"type":"status","status":"waiting"}')).toEqual({ kind: 'status', status: 'waiting' });
    expect(parseLogFrame('{"status":"ended","type":"status"}')).toEqual({ kind: 'status', status: 'ended' });
    expect(parseLogFrame('{"type":"status","status":"exploded"}')).toEqual({ kind: 'line', text: '{"type":"status","status":"exploded"}' });
    expect(parseLogFrame('{"level":"info","status":200}')).toEqual({ kind: 'line', text: '{"level":"info","status":200}' });
    expect(parseLogFrame('GET / 200\n')).toEqual({ kind: 'line', text: 'GET / 200' });
    expect(parseLogFrame(new TextEncoder().encode('bytes').buffer)).toEqual({ kind: 'line', text: 'bytes' });
  });

  it('keeps the last lines only', () => {
    expect(keepLast(['a', 'b'], ['c'], 2)).toEqual(['b', 'c']);
    expect(keepLast([], ['a'], 2)).toEqual(['a']);
  });
});

describe('log viewer: every connection state', () => {
  it('connects to /containerLogs for the project, waits for the container, then follows it', async () => {
    const { sockets } = await mount();
    const ws = sockets.latest();
    expect(ws.url).toMatch(/\/containerLogs\?id=p1&uid=u-1$/);
    expect(ws.protocols).toEqual(['ludis.v1', 'bearer.access-1']);
    expect(statusLine()).toHaveTextContent('Connecting to the log…');
    ws.accept();
    ws.receive('{"type":"status","status":"waiting"}');
    expect(statusLine()).toHaveTextContent('Waiting for the container to start…');
    ws.receive('{"type":"status","status":"running"}');
    ws.receive('Serving on :8501');
    ws.receive('GET / 200');
    expect(statusLine()).toHaveTextContent('Live: following the container’s log.');
    expect(log()).toHaveTextContent('Serving on :8501 GET / 200');
  });

  it('keeps only the last 100 lines', async () => {
    const { sockets } = await mount();
    const ws = sockets.latest();
    ws.accept();
    act(() => {
      for (let i = 1; i <= 105; i += 1) ws.onmessage?.(new MessageEvent('message', { data: `line ${i}` }));
    });
    const lines = log().textContent!.split('\n');
    expect(lines).toHaveLength(100);
    expect(lines[0]).toBe('line 6');
    expect(lines.at(-1)).toBe('line 105');
  });

  it('reconnects with backoff while the container runs, and starts the buffer over', async () => {
    const { sockets } = await mount();
    sockets.latest().accept();
    sockets.latest().receive('old line');
    sockets.latest().fail();
    expect(statusLine()).toHaveTextContent('Connection lost. Reconnecting in 1 s (try 1 of 8)…');
    // The lines stay readable while it waits.
    expect(log()).toHaveTextContent('old line');
    await advance(999);
    expect(sockets.all).toHaveLength(1);
    await advance(1);
    await settle(() => expect(sockets.all).toHaveLength(2));
    expect(statusLine()).toHaveTextContent('Reconnecting to the log (try 1 of 8)…');
    sockets.latest().fail();
    expect(statusLine()).toHaveTextContent('Reconnecting in 2 s (try 2 of 8)');
    await advance(2000);
    await settle(() => expect(sockets.all).toHaveLength(3));
    sockets.latest().accept();
    // The server sends the last 100 lines again: no duplicates.
    expect(log()).toHaveTextContent('No log lines yet.');
    sockets.latest().receive('old line');
    sockets.latest().receive('new line');
    expect(log().textContent).toBe('old line\nnew line');
  });

  it('shows the archived log once the container has ended, and follows a new run', async () => {
    const { sockets, rerender } = await mount();
    const ws = sockets.latest();
    ws.accept();
    ws.receive('{"type":"status","status":"ended"}');
    expect(statusLine()).toHaveTextContent('The container has ended; showing its archived log.');
    ws.receive('archived 1');
    ws.receive('archived 2');
    ws.serverClose(1000);
    expect(statusLine()).toHaveTextContent('The container has ended. This is its archived log.');
    expect(log().textContent).toBe('archived 1\narchived 2');
    await advance(60_000);
    expect(sockets.all).toHaveLength(1);

    // Stopped (the prop follows the preview), then run again: a live stream.
    rerender(<LogViewer id="p1" uid="u-1" running={false} />);
    rerender(<LogViewer id="p1" uid="u-1" running />);
    await settle(() => expect(sockets.all).toHaveLength(2));
    sockets.latest().accept();
    sockets.latest().receive('{"type":"status","status":"running"}');
    expect(statusLine()).toHaveTextContent('Live');
  });

  it('falls back to the archive after a drop once the container has stopped', async () => {
    const { sockets, rerender } = await mount();
    sockets.latest().accept();
    sockets.latest().receive('live line');
    rerender(<LogViewer id="p1" uid="u-1" running={false} />);
    sockets.latest().fail();
    await advance(1000);
    await settle(() => expect(sockets.all).toHaveLength(2));
    // The server answers a finished container with its archive and 1000.
    const ws = sockets.latest();
    ws.accept();
    ws.receive('{"type":"status","status":"ended"}');
    ws.receive('live line');
    ws.receive('last line');
    ws.serverClose(1000);
    expect(statusLine()).toHaveTextContent('The container has ended. This is its archived log.');
    expect(log().textContent).toBe('live line\nlast line');
  });

  it('stops when access is revoked (4403)', async () => {
    const { sockets } = await mount();
    sockets.latest().accept();
    sockets.latest().serverClose(4403);
    expect(statusLine()).toHaveTextContent('Your access to this project was revoked.');
    expect(screen.queryByRole('button', { name: 'Retry' })).not.toBeInTheDocument();
    await advance(60_000);
    expect(sockets.all).toHaveLength(1);
  });

  it('says why a refused stream stopped, with a retry', async () => {
    const { sockets } = await mount();
    sockets.latest().serverClose(1008, 'Origin not allowed');
    expect(statusLine()).toHaveTextContent('The server refused the log stream: Origin not allowed.');
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await settle(() => expect(sockets.all).toHaveLength(2));
  });

  it('gives up after 8 tries and offers a retry', async () => {
    const { sockets } = await mount();
    for (let n = 1; n <= 8; n += 1) {
      sockets.latest().fail();
      await advance(30_000);
      await settle(() => expect(sockets.all).toHaveLength(n + 1));
    }
    sockets.latest().fail();
    expect(statusLine()).toHaveTextContent('Could not reach the log. Check your connection and try again.');
    await advance(60_000);
    expect(sockets.all).toHaveLength(9);
    fireEvent.click(screen.getByRole('button', { name: 'Retry' }));
    await settle(() => expect(sockets.all).toHaveLength(10));
    sockets.latest().accept();
    expect(statusLine()).toHaveTextContent('Live');
  });

  it('follows by default; the switch turns it off', async () => {
    await mount();
    const follow = screen.getByRole('switch', { name: 'Follow' });
    expect(follow).toBeChecked();
    fireEvent.click(follow);
    expect(follow).not.toBeChecked();
  });

  it('closes the socket when it goes away', async () => {
    const { sockets, unmount } = await mount();
    sockets.latest().accept();
    unmount();
    expect(sockets.latest().closedByClient).toEqual({ code: 1000, reason: undefined });
  });
});
