import { getPresignedUrl } from '@/features/datasets/api/get-presigned-url';

/**
 * Files travel straight between the browser and object storage on presigned addresses (contract
 * "getpresignedurl"). XMLHttpRequest, not fetch: only XHR reports upload progress.
 */

export type TransferProgress = { loaded: number; total: number | null };
export type OnProgress = (p: TransferProgress) => void;

/** A transfer that did not complete; `aborted` when the user cancelled it. */
export class TransferError extends Error {
  readonly status: number;
  readonly aborted: boolean;

  constructor(message: string, status: number, aborted = false) {
    super(message);
    this.name = 'TransferError';
    this.status = status;
    this.aborted = aborted;
  }
}

export const TRANSFER_MESSAGES = {
  unreachable: 'The object storage could not be reached.',
  cancelled: 'Cancelled',
} as const;

/** The `<Message>` of an S3 error document, if the body is one. */
export function storageErrorMessage(body: string | null | undefined): string | undefined {
  if (!body) return undefined;
  const m = /<Message>([^<]*)<\/Message>/.exec(body);
  return m?.[1]?.trim() || undefined;
}

function failure(xhr: XMLHttpRequest, verb: 'upload' | 'download'): TransferError {
  if (xhr.status === 0) return new TransferError(TRANSFER_MESSAGES.unreachable, 0);
  let detail: string | undefined;
  try {
    detail = storageErrorMessage(typeof xhr.response === 'string' ? xhr.response : xhr.responseText);
  } catch {
    // responseText is unreadable for a blob response: the status says enough.
  }
  return new TransferError(`The ${verb} failed (HTTP ${xhr.status})${detail ? `: ${detail}` : ''}`, xhr.status);
}

function send<T>(
  xhr: XMLHttpRequest,
  body: Blob | null,
  verb: 'upload' | 'download',
  result: () => T,
  signal?: AbortSignal,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(new TransferError(TRANSFER_MESSAGES.cancelled, 0, true));
      return;
    }
    const abort = () => xhr.abort();
    signal?.addEventListener('abort', abort, { once: true });
    const settle = () => signal?.removeEventListener('abort', abort);
    xhr.onload = () => {
      settle();
      if (xhr.status >= 200 && xhr.status < 300) resolve(result());
      else reject(failure(xhr, verb));
    };
    xhr.onerror = () => {
      settle();
      reject(new TransferError(TRANSFER_MESSAGES.unreachable, 0));
    };
    xhr.onabort = () => {
      settle();
      reject(new TransferError(TRANSFER_MESSAGES.cancelled, 0, true));
    };
    xhr.send(body);
  });
}

/** PUTs `file` to a presigned address, reporting the bytes sent. */
export function putWithProgress(url: string, file: Blob, onProgress: OnProgress, signal?: AbortSignal): Promise<void> {
  const xhr = new XMLHttpRequest();
  xhr.open('PUT', url);
  // Not part of the signature; object storage keeps it for later downloads.
  xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
  xhr.upload.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : file.size });
  return send(xhr, file, 'upload', () => onProgress({ loaded: file.size, total: file.size }), signal);
}

/**
 * GETs a presigned address as a Blob, reporting the bytes received. `size` (from the listing)
 * stands in for the total when the server does not expose Content-Length.
 */
export function getWithProgress(url: string, onProgress: OnProgress, signal?: AbortSignal, size?: number): Promise<Blob> {
  const xhr = new XMLHttpRequest();
  xhr.open('GET', url);
  xhr.responseType = 'blob';
  xhr.onprogress = (e) => onProgress({ loaded: e.loaded, total: e.lengthComputable ? e.total : (size ?? null) });
  return send(
    xhr,
    null,
    'download',
    () => {
      const blob = xhr.response as Blob;
      onProgress({ loaded: blob.size, total: blob.size });
      return blob;
    },
    signal,
  );
}

/** Uploads `file` as the relative key `key` of dataset `id`. */
export async function uploadDatasetFile(id: string, key: string, file: File, onProgress: OnProgress, signal?: AbortSignal) {
  const { url } = await getPresignedUrl(id, key, 'PUT');
  if (signal?.aborted) throw new TransferError(TRANSFER_MESSAGES.cancelled, 0, true);
  await putWithProgress(url, file, onProgress, signal);
}

/** Downloads the relative key `key` of dataset `id`. */
export async function downloadDatasetFile(id: string, key: string, onProgress: OnProgress, signal?: AbortSignal, size?: number) {
  const { url } = await getPresignedUrl(id, key, 'GET');
  if (signal?.aborted) throw new TransferError(TRANSFER_MESSAGES.cancelled, 0, true);
  return getWithProgress(url, onProgress, signal, size);
}

/** Hands a downloaded Blob to the browser as a file named `name`. */
export function saveBlob(blob: Blob, name: string) {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser time to start reading it.
  setTimeout(() => URL.revokeObjectURL(href), 10_000);
}
