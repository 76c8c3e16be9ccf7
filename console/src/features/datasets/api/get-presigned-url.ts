import type { PresignedUrlResponse, PresignMethod } from '@/features/datasets/api/types';
import { api } from '@/lib/api-client';

/**
 * POST /v1/datasets/getpresignedurl/{id} {path, method}: an address for exactly one PUT (edit
 * access, 15 minutes) or GET (view access, 1 hour) of the file `path`, straight to object storage.
 */
export function getPresignedUrl(id: string, path: string, method: PresignMethod) {
  return api.post<PresignedUrlResponse>(`/v1/datasets/getpresignedurl/${encodeURIComponent(id)}`, { path, method });
}
