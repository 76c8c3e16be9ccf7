import { queryOptions, useQuery } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import type { FileAnswer, FolderAnswer } from '@/features/projects/api/types';
import { untyped } from '@/lib/api-client';

/**
 * POST /v2/projects/repocontents/{id} {project, path} (view access) lists a folder at the branch
 * head ('' is the root) or reads a file; the answer's `contents` says which.
 */
function repoContents<T>(id: string, path: string, signal?: AbortSignal) {
  return untyped<T>('POST', '/v2/projects/repocontents/{id}', { params: { path: { id } }, body: { project: id, path }, signal });
}

export function getRepoFolder(id: string, path: string, signal?: AbortSignal) {
  return repoContents<FolderAnswer>(id, path, signal);
}

export function getRepoFile(id: string, path: string, signal?: AbortSignal) {
  return repoContents<FileAnswer>(id, path, signal);
}

export function getRepoFolderQueryOptions(id: string, path: string) {
  return queryOptions({
    queryKey: projectKeys.folder(id, path),
    queryFn: ({ signal }) => getRepoFolder(id, path, signal),
    meta: { silent: true },
  });
}

/** A file as the editor loads it: always the branch head (a reload must not use a cached copy). */
export function getRepoFileQueryOptions(id: string, path: string) {
  return queryOptions({
    queryKey: projectKeys.file(id, path),
    queryFn: ({ signal }) => getRepoFile(id, path, signal),
    staleTime: 0,
    meta: { silent: true },
  });
}

export function useRepoFolder(id: string, path: string) {
  return useQuery(getRepoFolderQueryOptions(id, path));
}
