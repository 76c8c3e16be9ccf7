import { queryOptions, useQuery } from '@tanstack/react-query';

import { projectKeys } from '@/features/projects/api/keys';
import { api, unwrap } from '@/lib/api-client';
import type { FileContent, RepoContentItem } from '@/lib/api/types';

/**
 * POST /v2/projects/repocontents/{id} {project, path} (view access) lists a folder at the branch
 * head ('' is the root) or reads a file; the answer's `contents` says which: the folder's entries
 * (an array) or the file.
 */
function repoContents(id: string, path: string, signal?: AbortSignal) {
  return unwrap(api.POST('/v2/projects/repocontents/{id}', { params: { path: { id } }, body: { project: id, path }, signal }));
}

/** A folder's entries; a path that names a file is an error. */
export async function getRepoFolder(id: string, path: string, signal?: AbortSignal): Promise<RepoContentItem[]> {
  const { contents } = await repoContents(id, path, signal);
  if (!Array.isArray(contents)) throw new Error(`${path} is a file, not a folder`);
  return contents;
}

/** A file's content; a path that names a folder is an error. */
export async function getRepoFile(id: string, path: string, signal?: AbortSignal): Promise<FileContent> {
  const { contents } = await repoContents(id, path, signal);
  if (Array.isArray(contents)) throw new Error(`${path || '/'} is a folder, not a file`);
  return contents;
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
