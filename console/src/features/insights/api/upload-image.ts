import { useMutation } from '@tanstack/react-query';

import { IMAGE_EXTENSIONS } from '@/config/constants';
import { ApiError, api, unwrap } from '@/lib/api-client';

export const IMAGE_TYPE_ERROR = 'Only png, jpg and jpeg images are allowed';

/** png, jpg or jpeg by the file name (spec 000 §5 "Images"). */
export function isAllowedImage(file: File) {
  const ext = file.name.split('.').pop()?.toLowerCase() ?? '';
  return file.name.includes('.') && (IMAGE_EXTENSIONS as readonly string[]).includes(ext);
}

/**
 * Uploads an insight image as the profile photo does (spec 000 §7): GET /v1/users/presign_url
 * with user_name and ext, the last url of the answer, then PUT the file straight to it.
 * Returns the object key to save as `img_path`.
 */
export async function uploadInsightImage(file: File, userName: string): Promise<string> {
  if (!isAllowedImage(file)) throw new ApiError(IMAGE_TYPE_ERROR, 400, 'invalid_image');
  const ext = `.${file.name.split('.').pop()!.toLowerCase()}`;
  const { urls } = await unwrap(api.GET('/v1/users/presign_url', { params: { query: { user_name: userName, ext } } }));
  const target = urls.at(-1);
  if (!target) throw new ApiError('The server gave no upload address.', 500);
  let res: Response;
  try {
    res = await fetch(target.presigned_url, { method: 'PUT', body: file, headers: { 'Content-Type': file.type || 'application/octet-stream' } });
  } catch {
    throw new ApiError('The image could not be uploaded to the object storage.', 0, 'network_error');
  }
  if (!res.ok) throw new ApiError(`The image upload failed (HTTP ${res.status}).`, res.status);
  return target.photo_path;
}

export function useUploadInsightImage() {
  return useMutation({ mutationFn: ({ file, userName }: { file: File; userName: string }) => uploadInsightImage(file, userName) });
}
