import { useCallback, useEffect, useEffectEvent, useRef, useState } from 'react';

import { type Backoff, openStream, type Stream, type StreamState } from '@/lib/ws';

type Options = {
  path: string;
  query: Record<string, string>;
  binary?: boolean;
  reconnect: Backoff | false;
  /** Connect only while true; false closes the stream. */
  enabled?: boolean;
  onMessage: (data: string | ArrayBuffer) => void;
  onOpen?: () => void;
};

/**
 * A websocket stream for a component (lib/ws.ts): opened while `enabled`, opened again when the
 * path or query changes, closed on unmount. Returns its state, `send` and `restart`.
 */
export function useStream({ path, query, binary, reconnect, enabled = true, onMessage, onOpen }: Options) {
  const [state, setState] = useState<StreamState>({ status: 'closed' });
  const stream = useRef<Stream | null>(null);
  const message = useEffectEvent(onMessage);
  const open = useEffectEvent(() => onOpen?.());
  // The policy in force when a connection opens; changing it alone does not reconnect.
  const policy = useEffectEvent(() => reconnect);
  // The connection depends on the query's values, not on the identity of the object passed.
  const queryKey = new URLSearchParams(query).toString();

  useEffect(() => {
    if (!enabled) return;
    const s = openStream({
      path,
      query: Object.fromEntries(new URLSearchParams(queryKey)),
      binary,
      reconnect: policy(),
      onMessage: (data) => message(data),
      onOpen: () => open(),
      onState: setState,
    });
    stream.current = s;
    return () => {
      s.close();
      stream.current = null;
    };
  }, [enabled, path, queryKey, binary]);

  const send = useCallback((data: string | ArrayBuffer | ArrayBufferView<ArrayBuffer>) => stream.current?.send(data) ?? false, []);
  const restart = useCallback(() => stream.current?.restart(), []);
  return { state: enabled ? state : ({ status: 'closed' } as StreamState), send, restart };
}
