import { useMutation } from '@tanstack/react-query';

import { ApiError, api, unwrap } from '@/lib/api-client';

/** GET /v1/users/presign_url with user_name and ext; the last url of the answer is used. */
export function getPresignUrl(params: { user_name: string; ext: string }) {
  return unwrap(api.GET('/v1/users/presign_url', { params: { query: params } }));
}

/** Uploads a profile image: presign, then PUT the file straight to the presigned address. */
export async function uploadProfileImage(file: File, userName: string): Promise<string> {
  const dot = file.name.lastIndexOf('.');
  const ext = dot >= 0 ? file.name.slice(dot).toLowerCase() : '.png';
  const { urls } = await getPresignUrl({ user_name: userName, ext });
  const target = urls.at(-1);
  if (!target) throw new ApiError('The server gave no upload address.', 500);
  const res = await fetch(target.presigned_url, { method: 'PUT', body: file, headers: { 'Content-Type': file.type } });
  if (!res.ok) throw new ApiError(`The image upload failed (HTTP ${res.status}).`, res.status);
  return target.photo_path;
}

export function useUploadProfileImage() {
  return useMutation({ mutationFn: ({ file, userName }: { file: File; userName: string }) => uploadProfileImage(file, userName) });
}
