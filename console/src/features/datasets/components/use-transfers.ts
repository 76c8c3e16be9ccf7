import { useCallback, useEffect, useRef, useState } from 'react';

import { TRANSFER_CONCURRENCY } from '@/config/constants';
import { type OnProgress, TransferError } from '@/features/datasets/api/transfer';

export type TransferKind = 'upload' | 'download';
export type TransferStatus = 'queued' | 'running' | 'done' | 'failed' | 'cancelled';

export type TransferItem = {
  id: number;
  name: string;
  loaded: number;
  total: number;
  status: TransferStatus;
  error?: string;
};

export type TransferBatch = {
  kind: TransferKind;
  items: TransferItem[];
  /** Still moving bytes (the dialog cannot be dismissed, only cancelled). */
  running: boolean;
  cancelled: boolean;
};

/** One file to move: `run` does the work and reports progress; it must honour `signal`. */
export type TransferJob = {
  name: string;
  size: number;
  run: (onProgress: OnProgress, signal: AbortSignal) => Promise<void>;
};

export type TransferOutcome = { ok: boolean; cancelled: boolean; failed: TransferItem[] };

/** The percentage shown for one item (a zero-byte file that finished is 100). */
export function percentOf(item: Pick<TransferItem, 'loaded' | 'total' | 'status'>): number {
  if (item.status === 'done') return 100;
  if (!item.total) return 0;
  return Math.min(99, Math.floor((item.loaded / item.total) * 100));
}

/** The whole batch's percentage, by bytes. */
export function overallPercent(items: TransferItem[]): number {
  const total = items.reduce((n, i) => n + i.total, 0);
  if (items.length > 0 && items.every((i) => i.status === 'done')) return 100;
  if (!total) return 0;
  const loaded = items.reduce((n, i) => n + (i.status === 'done' ? i.total : Math.min(i.loaded, i.total)), 0);
  return Math.min(99, Math.floor((loaded / total) * 100));
}

/**
 * Runs a batch of uploads or downloads, a few at a time, and keeps each file's progress for the
 * progress dialog. `cancel` aborts what is running and drops what is queued.
 */
export function useTransfers() {
  const [batch, setBatch] = useState<TransferBatch | null>(null);
  const controller = useRef<AbortController | null>(null);

  // Leaving the page stops the transfers.
  useEffect(() => () => controller.current?.abort(), []);

  const patch = useCallback((id: number, change: Partial<TransferItem>) => {
    setBatch((b) => (b ? { ...b, items: b.items.map((i) => (i.id === id ? { ...i, ...change } : i)) } : b));
  }, []);

  const start = useCallback(
    async (kind: TransferKind, jobs: TransferJob[]): Promise<TransferOutcome> => {
      const abort = new AbortController();
      controller.current = abort;
      const items: TransferItem[] = jobs.map((j, id) => ({ id, name: j.name, loaded: 0, total: j.size, status: 'queued' }));
      const final = items.map((i) => ({ ...i }));
      setBatch({ kind, items, running: true, cancelled: false });

      let next = 0;
      const worker = async () => {
        while (next < jobs.length) {
          const id = next++;
          if (abort.signal.aborted) {
            final[id].status = 'cancelled';
            patch(id, { status: 'cancelled' });
            continue;
          }
          patch(id, { status: 'running' });
          try {
            await jobs[id].run(({ loaded, total }) => patch(id, { loaded, ...(total !== null ? { total } : {}) }), abort.signal);
            final[id].status = 'done';
            patch(id, { status: 'done', loaded: final[id].total });
          } catch (e) {
            const cancelled = abort.signal.aborted || (e instanceof TransferError && e.aborted);
            final[id].status = cancelled ? 'cancelled' : 'failed';
            final[id].error = cancelled ? undefined : e instanceof Error ? e.message : String(e);
            patch(id, { status: final[id].status, error: final[id].error });
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(TRANSFER_CONCURRENCY, jobs.length) }, worker));

      const cancelled = abort.signal.aborted;
      setBatch((b) => (b ? { ...b, running: false, cancelled } : b));
      if (controller.current === abort) controller.current = null;
      const failed = final.filter((i) => i.status === 'failed');
      return { ok: !cancelled && failed.length === 0, cancelled, failed };
    },
    [patch],
  );

  const cancel = useCallback(() => controller.current?.abort(), []);
  const close = useCallback(() => setBatch(null), []);

  return { batch, start, cancel, close };
}
