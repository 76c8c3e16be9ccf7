/**
 * The wire format of `/containerLogs` (docs/contracts/projects-v2.md "Websockets"): every text
 * frame is one log line, except a JSON frame `{"type":"status","status":…}` that says what the
 * viewer is looking at. When the container has ended, its archived log follows and the socket
 * closes with 1000.
 */
export type LogStatus = 'waiting' | 'running' | 'ended';
export type LogFrame = { kind: 'line'; text: string } | { kind: 'status'; status: LogStatus };

const STATUSES: readonly string[] = ['waiting', 'running', 'ended'];

export function parseLogFrame(data: string | ArrayBuffer): LogFrame {
  const text = typeof data === 'string' ? data : new TextDecoder().decode(data);
  // A status frame is small; anything else is a line even when it is JSON.
  if (text.length < 200 && text.startsWith('{') && text.includes('"status"')) {
    try {
      const frame = JSON.parse(text) as { type?: unknown; status?: unknown };
      if (frame.type === 'status' && typeof frame.status === 'string' && STATUSES.includes(frame.status)) {
        return { kind: 'status', status: frame.status as LogStatus };
      }
    } catch {
      /* a log line that only looks like a status */
    }
  }
  return { kind: 'line', text: text.replace(/\r?\n$/, '') };
}

/** The last `max` lines of `lines` followed by `more`. */
export function keepLast(lines: readonly string[], more: readonly string[], max: number): string[] {
  const all = lines.concat(more);
  return all.length > max ? all.slice(all.length - max) : all;
}
