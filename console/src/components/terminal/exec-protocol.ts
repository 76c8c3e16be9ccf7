/**
 * The wire format of `/terminalConnection` (docs/contracts/projects-v2.md "Websockets"): binary
 * frames carry the TTY's stdin (to the server) and stdout/stderr (from it); a JSON text frame
 * `{"type":"resize","cols":N,"rows":N}` resizes it. The socket closes when the shell exits.
 */
export const TERMINAL_PATH = '/terminalConnection';

const encoder = new TextEncoder();

/** Keystrokes (xterm's onData) as a binary frame. */
export function encodeInput(data: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(data);
}

/** A resize as the server reads it; sizes are whole cells, at least 1. */
export function encodeResize(cols: number, rows: number): string {
  return JSON.stringify({ type: 'resize', cols: Math.max(1, Math.floor(cols)), rows: Math.max(1, Math.floor(rows)) });
}

/** Output for xterm: binary frames as bytes (xterm decodes UTF-8 across frames), text as is. */
export function decodeOutput(data: string | ArrayBuffer): string | Uint8Array {
  return typeof data === 'string' ? data : new Uint8Array(data);
}
