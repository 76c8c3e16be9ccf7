import { act } from '@testing-library/react';
import { vi } from 'vitest';

type Frame = string | ArrayBuffer | ArrayBufferView;

/**
 * A WebSocket the test drives from the server's side: `accept()`, `receive()`, `serverClose()`,
 * `fail()`. The page's side (constructor, send, close) is recorded. Each server-side step runs in
 * act(), so React sees its effects. Install it with `installFakeWebSocket()`.
 */
export class FakeWebSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSING = 2;
  static readonly CLOSED = 3;
  static instances: FakeWebSocket[] = [];

  readonly url: string;
  readonly protocols: string[];
  readyState = FakeWebSocket.CONNECTING;
  binaryType: BinaryType = 'blob';
  protocol = '';
  /** What the page sent, in order. */
  readonly sent: Frame[] = [];
  /** How the page closed it, if it did. */
  closedByClient: { code?: number; reason?: string } | null = null;

  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;

  constructor(url: string | URL, protocols?: string | string[]) {
    this.url = String(url);
    this.protocols = protocols === undefined ? [] : Array.isArray(protocols) ? protocols : [protocols];
    FakeWebSocket.instances.push(this);
  }

  send(data: Frame) {
    if (this.readyState !== FakeWebSocket.OPEN) throw new Error('InvalidStateError: the socket is not open');
    this.sent.push(data);
  }

  close(code?: number, reason?: string) {
    if (this.readyState >= FakeWebSocket.CLOSING) return;
    this.closedByClient = { code, reason };
    this.readyState = FakeWebSocket.CLOSED;
  }

  /** The query of the address, as an object. */
  get query(): Record<string, string> {
    return Object.fromEntries(new URL(this.url).searchParams);
  }

  /** Text frames the page sent, parsed as JSON. */
  get sentJson(): unknown[] {
    return this.sent.filter((f): f is string => typeof f === 'string').map((f) => JSON.parse(f) as unknown);
  }

  /** Binary frames the page sent, decoded as UTF-8. */
  get sentText(): string[] {
    return this.sent
      .filter((f) => typeof f !== 'string')
      .map((f) => new TextDecoder().decode(f instanceof ArrayBuffer ? new Uint8Array(f) : new Uint8Array(f.buffer, f.byteOffset, f.byteLength)));
  }

  /** The server accepts the upgrade with `ludis.v1`. */
  accept(protocol = 'ludis.v1') {
    act(() => {
      this.readyState = FakeWebSocket.OPEN;
      this.protocol = protocol;
      this.onopen?.(new Event('open'));
    });
  }

  /** One frame from the server (text as is; binary as the ArrayBuffer the page asked for). */
  receive(data: string | Uint8Array) {
    act(() => {
      const payload = typeof data === 'string' ? data : data.slice().buffer;
      this.onmessage?.(new MessageEvent('message', { data: payload }));
    });
  }

  /** The server closes with `code`. */
  serverClose(code: number, reason = '') {
    act(() => {
      this.readyState = FakeWebSocket.CLOSED;
      this.onclose?.({ code, reason, wasClean: code !== 1006 } as CloseEvent);
    });
  }

  /** The connection fails or drops without a close frame (1006), after an error event. */
  fail() {
    act(() => {
      this.readyState = FakeWebSocket.CLOSED;
      this.onerror?.(new Event('error'));
      this.onclose?.({ code: 1006, reason: '', wasClean: false } as CloseEvent);
    });
  }
}

/** Replaces the global WebSocket with FakeWebSocket for this test (setup-tests restores it). */
export function installFakeWebSocket() {
  FakeWebSocket.instances = [];
  vi.stubGlobal('WebSocket', FakeWebSocket);
  return {
    get all() {
      return FakeWebSocket.instances;
    },
    /** The newest socket; fails the test if none was opened. */
    latest(): FakeWebSocket {
      const s = FakeWebSocket.instances.at(-1);
      if (!s) throw new Error('no WebSocket was opened');
      return s;
    },
  };
}
