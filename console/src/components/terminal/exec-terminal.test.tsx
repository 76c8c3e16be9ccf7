import { fireEvent, screen, waitFor } from '@testing-library/react';
import { FitAddon } from '@xterm/addon-fit';
import { describe, expect, it, vi } from 'vitest';

import { decodeOutput, encodeInput, encodeResize } from '@/components/terminal/exec-protocol';
import { ExecTerminal } from '@/components/terminal/exec-terminal';
import { installFakeWebSocket } from '@/testing/fake-websocket';
import { renderInProviders } from '@/testing/render';
import { signIn } from '@/testing/session';
import { user } from '@/testing/user';

const statusLine = () => screen.getByRole('status', { name: 'Terminal status' });
const screenText = () => document.querySelector('.xterm-rows')?.textContent ?? '';

async function mount() {
  signIn();
  const sockets = installFakeWebSocket();
  const view = renderInProviders(<ExecTerminal id="p1" uid="u-1" />);
  await waitFor(() => expect(sockets.all).toHaveLength(1));
  return { sockets, ...view };
}

describe('exec protocol (components/terminal/exec-protocol.ts)', () => {
  it('sends keystrokes as UTF-8 bytes and resizes as JSON text', () => {
    expect(Array.from(encodeInput('é\r'))).toEqual([0xc3, 0xa9, 0x0d]);
    expect(JSON.parse(encodeResize(120.7, 40))).toEqual({ type: 'resize', cols: 120, rows: 40 });
    expect(JSON.parse(encodeResize(0, -3))).toEqual({ type: 'resize', cols: 1, rows: 1 });
    expect(decodeOutput(new Uint8Array([104, 105]).buffer)).toEqual(new Uint8Array([104, 105]));
    expect(decodeOutput('text')).toBe('text');
  });
});

describe('terminal: every connection state', () => {
  it('opens /terminalConnection with the token, sends its size, echoes output and sends keystrokes', async () => {
    const { sockets } = await mount();
    const ws = sockets.latest();
    expect(ws.url).toMatch(/\/terminalConnection\?id=p1&uid=u-1$/);
    expect(ws.protocols).toEqual(['ludis.v1', 'bearer.access-1']);
    expect(statusLine()).toHaveTextContent('Connecting to the terminal…');
    ws.accept();
    expect(ws.binaryType).toBe('arraybuffer');
    expect(statusLine()).toHaveTextContent('Connected');
    // The first frame is the terminal's size.
    expect(ws.sentJson).toEqual([{ type: 'resize', cols: 80, rows: 24 }]);
    ws.receive(new TextEncoder().encode('$ '));
    await waitFor(() => expect(screenText()).toContain('$'));
    const keys = document.querySelector<HTMLTextAreaElement>('.xterm-helper-textarea')!;
    await user().type(keys, 'ls{Enter}');
    await waitFor(() => expect(ws.sentText.join('')).toBe('ls\r'));
    ws.receive(new TextEncoder().encode('ls\r\napp.py  README.md\r\n$ '));
    await waitFor(() => expect(screenText()).toContain('app.py  README.md'));
  });

  it('sends a resize frame when its box changes size', async () => {
    const { sockets } = await mount();
    const ws = sockets.latest();
    ws.accept();
    // happy-dom lays nothing out: stand in for the browser's measurement of the box.
    const measure = vi.spyOn(FitAddon.prototype, 'proposeDimensions').mockReturnValue({ cols: 132, rows: 40 });
    fireEvent(window, new Event('resize'));
    await waitFor(() => expect(ws.sentJson.at(-1)).toEqual({ type: 'resize', cols: 132, rows: 40 }));
    measure.mockRestore();
  });

  it('says when the shell exited and opens a new session on request', async () => {
    const { sockets } = await mount();
    sockets.latest().accept();
    sockets.latest().serverClose(1000);
    expect(statusLine()).toHaveTextContent('The shell exited.');
    await user().click(screen.getByRole('button', { name: 'New session' }));
    await waitFor(() => expect(sockets.all).toHaveLength(2));
    sockets.latest().accept();
    expect(statusLine()).toHaveTextContent('Connected');
  });

  it('does not reconnect a dropped shell by itself; Reconnect does', async () => {
    const { sockets } = await mount();
    sockets.latest().accept();
    sockets.latest().fail();
    expect(statusLine()).toHaveTextContent('The terminal connection was lost.');
    expect(sockets.all).toHaveLength(1);
    await user().click(screen.getByRole('button', { name: 'Reconnect' }));
    await waitFor(() => expect(sockets.all).toHaveLength(2));
  });

  it('ends the session when access is revoked (4403), with no way back in', async () => {
    const { sockets } = await mount();
    sockets.latest().accept();
    sockets.latest().serverClose(4403);
    expect(statusLine()).toHaveTextContent('Your access to this project was revoked; what you started in its container was stopped.');
    expect(screen.queryByRole('button', { name: /Reconnect|New session/ })).not.toBeInTheDocument();
  });

  it('ends the session when the caller signed out elsewhere (4401), saying so', async () => {
    const { sockets } = await mount();
    sockets.latest().accept();
    sockets.latest().serverClose(4401, 'signed out');
    expect(statusLine()).toHaveTextContent('Your session ended (signed out, password changed or account deactivated): sign in again.');
    expect(screen.queryByRole('button', { name: /Reconnect|New session/ })).not.toBeInTheDocument();
  });

  it('says why the server refused it', async () => {
    const { sockets } = await mount();
    sockets.latest().serverClose(1008, 'Origin not allowed');
    expect(statusLine()).toHaveTextContent('The server refused the terminal: Origin not allowed.');
    expect(screen.getByRole('button', { name: 'Reconnect' })).toBeInTheDocument();
  });

  it('drops keystrokes while not connected and closes the socket when it goes away', async () => {
    const { sockets, unmount } = await mount();
    const keys = document.querySelector<HTMLTextAreaElement>('.xterm-helper-textarea')!;
    await user().type(keys, 'x');
    expect(sockets.latest().sent).toEqual([]);
    sockets.latest().accept();
    unmount();
    expect(sockets.latest().closedByClient).toEqual({ code: 1000, reason: undefined });
  });
});
