import { api, unwrap } from '@/lib/api-client';
import type { DatasetPresignResponse } from '@/lib/api/types';

export type PresignMethod = DatasetPresignResponse['method'];

/**
 * POST /v1/datasets/getpresignedurl/{id} {path, method}: an address for exactly one PUT (edit
 * access, 15 minutes) or GET (view access, 1 hour) of the file `path`, straight to object storage.
 */
export function getPresignedUrl(id: string, path: string, method: PresignMethod): Promise<DatasetPresignResponse> {
  return unwrap(api.POST('/v1/datasets/getpresignedurl/{id}', { params: { path: { id } }, body: { path, method } }));
}
