import { describe, expect, it, vi } from 'vitest';

import { getWithProgress, putWithProgress, storageErrorMessage, TransferError } from '@/features/datasets/api/transfer';
import { overallPercent, percentOf, type TransferItem } from '@/features/datasets/components/use-transfers';
import { installFakeXhr } from '@/testing/fake-xhr';

describe('transfers over XMLHttpRequest', () => {
  it('PUTs the file with its type and reports upload progress', async () => {
    const xhr = installFakeXhr();
    const seen: [number, number | null][] = [];
    const file = new File(['abcdefgh'], 'a.csv', { type: 'text/csv' });
    const done = putWithProgress('http://s/put', file, (p) => seen.push([p.loaded, p.total]));
    const r = xhr.requests[0];
    expect([r.method, r.url, r.headers['Content-Type'], r.body]).toEqual(['PUT', 'http://s/put', 'text/csv', file]);
    r.progress(4, 8);
    r.respond(200);
    await done;
    expect(seen).toEqual([
      [4, 8],
      [8, 8],
    ]);
  });

  it("turns storage errors into messages and an abort into a cancelled TransferError", async () => {
    const xhr = installFakeXhr();
    const failed = putWithProgress('http://s/put', new File(['x'], 'a.csv'), () => undefined);
    xhr.requests[0].respond(403, '<Error><Code>SignatureDoesNotMatch</Code><Message>The signature does not match</Message></Error>');
    await expect(failed).rejects.toThrow('The upload failed (HTTP 403): The signature does not match');

    const unreachable = getWithProgress('http://s/get', () => undefined);
    xhr.requests[1].fail();
    await expect(unreachable).rejects.toThrow('The object storage could not be reached.');

    const abort = new AbortController();
    const cancelled = getWithProgress('http://s/get', () => undefined, abort.signal);
    abort.abort();
    const e = await cancelled.catch((x: unknown) => x);
    expect(e).toBeInstanceOf(TransferError);
    expect((e as TransferError).aborted).toBe(true);
    expect(xhr.requests[2].aborted).toBe(true);
    expect(storageErrorMessage('plain text')).toBeUndefined();
  });

  it('GETs a blob and uses the listed size when the length is not exposed', async () => {
    const xhr = installFakeXhr();
    const progress = vi.fn();
    const done = getWithProgress('http://s/get', progress, undefined, 10);
    const r = xhr.requests[0];
    expect(r.responseType).toBe('blob');
    r.onprogress?.({ loaded: 5, total: 0, lengthComputable: false });
    expect(progress).toHaveBeenLastCalledWith({ loaded: 5, total: 10 });
    r.respond(200, new Blob(['0123456789']));
    expect((await done).size).toBe(10);
  });

  it('computes per-file and overall percentages', () => {
    const item = (loaded: number, total: number, status: TransferItem['status']): TransferItem => ({ id: 0, name: 'x', loaded, total, status });
    expect(percentOf(item(0, 0, 'done'))).toBe(100);
    expect(percentOf(item(0, 0, 'running'))).toBe(0);
    expect(percentOf(item(100, 100, 'running'))).toBe(99);
    expect(percentOf(item(1, 3, 'running'))).toBe(33);
    expect(overallPercent([item(100, 100, 'done'), item(0, 300, 'queued')])).toBe(25);
    expect(overallPercent([item(0, 0, 'done'), item(0, 0, 'done')])).toBe(100);
  });
});
