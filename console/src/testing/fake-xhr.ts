import { act } from '@testing-library/react';
import { vi } from 'vitest';

type Handler = ((e: { loaded: number; total: number; lengthComputable: boolean }) => void) | null;

/**
 * A stand-in for XMLHttpRequest (happy-dom's would really send): every request is recorded in
 * `FakeXhr.requests`; the test moves it along with `progress`, `respond`, `fail`.
 * `FakeXhr.onSend` can answer automatically.
 */
export class FakeXhr {
  static requests: FakeXhr[] = [];
  static onSend: ((xhr: FakeXhr) => void) | null = null;

  method = '';
  url = '';
  headers: Record<string, string> = {};
  body: unknown = null;
  status = 0;
  response: unknown = null;
  responseText = '';
  responseType = '';
  aborted = false;
  done = false;
  upload: { onprogress: Handler } = { onprogress: null };
  onprogress: Handler = null;
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onabort: (() => void) | null = null;

  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }

  setRequestHeader(name: string, value: string) {
    this.headers[name] = value;
  }

  send(body: unknown) {
    this.body = body;
    FakeXhr.requests.push(this);
    FakeXhr.onSend?.(this);
  }

  abort() {
    if (this.done) return;
    this.aborted = true;
    this.done = true;
    this.onabort?.();
  }

  /** Bytes sent (PUT) or received (GET) so far. */
  progress(loaded: number, total: number) {
    const e = { loaded, total, lengthComputable: true };
    act(() => {
      if (this.method === 'PUT') this.upload.onprogress?.(e);
      else this.onprogress?.(e);
    });
  }

  respond(status: number, response: unknown = '') {
    if (this.done) return;
    this.done = true;
    this.status = status;
    this.response = response;
    this.responseText = typeof response === 'string' ? response : '';
    act(() => this.onload?.());
  }

  /** A network failure (or a refused cross-origin request). */
  fail() {
    if (this.done) return;
    this.done = true;
    this.status = 0;
    act(() => this.onerror?.());
  }
}

/** Puts FakeXhr in place of XMLHttpRequest for this test (undone by the setup's unstubAllGlobals). */
export function installFakeXhr(onSend: ((xhr: FakeXhr) => void) | null = null) {
  FakeXhr.requests = [];
  FakeXhr.onSend = onSend;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  return FakeXhr;
}
