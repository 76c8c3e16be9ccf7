import type { DatasetView, ListFilesResponse } from '@/lib/api/types';

let next = 0;

/** A dataset as the API shows it (owned by the caller unless patched). */
export function makeDataset(patch: Partial<DatasetView> = {}): DatasetView {
  next += 1;
  const id = patch.id ?? `ds-${next}`;
  return {
    id,
    name: `Dataset ${next}`,
    description: 'Monthly sales',
    path: `datasets/${id}/`,
    img_path: null,
    user_uid: 'u-1',
    user: { first_name: 'Ada', last_name: 'Lovelace', photo_path: { original: null } },
    repo_author: 'ada@example.com',
    shareIcons: [],
    access_level: 'edit',
    is_owner: true,
    sample: false,
    managed: false,
    object_count: 2,
    bytes: 1500,
    deletion_policy: 'Retain',
    status: 'ready',
    created_at: 1763700000,
    updated_at: 1763700000,
    ...patch,
  };
}

/** A dataset someone else owns, shared with the caller at `level`. */
export function sharedDataset(level: 'view' | 'edit', patch: Partial<DatasetView> = {}) {
  return makeDataset({
    access_level: level,
    is_owner: false,
    user_uid: 'u-9',
    user: { first_name: 'Grace', last_name: 'Hopper', photo_path: { original: null } },
    repo_author: 'grace@example.com',
    ...patch,
  });
}

/** A seeded sample: no owner, organization view share. */
export function sampleDataset(patch: Partial<DatasetView> = {}) {
  return makeDataset({ access_level: 'view', is_owner: false, sample: true, user_uid: null, user: null, repo_author: null, ...patch });
}

/** A listfiles answer for `prefix` with these files (relative keys) and folders. */
export function listing(
  prefix: string,
  files: { key: string; size?: number }[],
  folders: string[] = [],
  more: Partial<ListFilesResponse> = {},
): ListFilesResponse {
  return {
    success: true,
    Name: 'Sales',
    Prefix: prefix,
    Contents: files.map((f) => ({ Key: f.key, Size: f.size ?? 10, LastModified: '2026-11-20T10:00:00Z' })),
    CommonPrefixes: folders.map((p) => ({ Prefix: p })),
    IsTruncated: false,
    ContinuationToken: null,
    NextContinuationToken: null,
    FileCount: files.length,
    KeyCount: files.length + folders.length,
    ...more,
  };
}
