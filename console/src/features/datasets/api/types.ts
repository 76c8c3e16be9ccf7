/**
 * Wire types of the dataset calls (issue 6 contract, "HTTP API"), written by hand until the
 * generated `schema.d.ts` has them. Field names are the API's, including its capitalised S3-style
 * listing (`Contents`, `CommonPrefixes`, ...).
 */
import type { DatasetFilter } from '@/config/constants';

/** How the caller may use a dataset: its owner, or a share's level. */
export type DatasetAccessLevel = 'owner' | 'edit' | 'view';
export type DatasetStatus = 'ready' | 'pending' | 'deleting' | 'failed';

export type DatasetOwner = {
  first_name?: string | null;
  last_name?: string | null;
  photo_path?: { original?: string | null } | null;
};

export type DatasetShareIcon = { id: string; name: string; photo_path?: string | null };

/** One dataset as the caller sees it. */
export type DatasetView = {
  id: string;
  name: string;
  description: string;
  /** `datasets/<id>/`: informative only, keys in calls are relative to it. */
  path: string;
  img_path: string | null;
  user_uid: string | null;
  user: DatasetOwner | null;
  repo_author: string | null;
  shareIcons: DatasetShareIcon[];
  access_level: DatasetAccessLevel;
  is_owner: boolean;
  sample: boolean;
  managed: boolean;
  object_count: number;
  bytes: number;
  deletion_policy: 'Retain' | 'Delete';
  status: DatasetStatus;
  /** Why the status is `failed`, when it is. */
  status_message?: string | null;
  created_at: number;
  updated_at: number;
};

export type DatasetsQuery = { filter: DatasetFilter; page: number; search: string };

/** GET /v1/datasets/listdatasets */
export type DatasetsPage = {
  success: boolean;
  datasets: DatasetView[];
  total: number;
  page: number;
  page_size: number;
  total_pages: number;
};

/** POST /v1/datasets/getdatasetdetails/{id} */
export type DatasetResponse = { success: boolean; dataset: DatasetView };

/** Create and update answers. */
export type DatasetMessageResponse = { success: boolean; message: string; dataset: DatasetView };

export type MessageResponse = { success: boolean; message: string };

export type DatasetFields = { name: string; description: string };

/** POST /v1/datasets/listfiles/{id} body. */
export type ListFilesRequest = { path: string; limit?: number; continuationToken?: string };

export type DatasetObject = { Key: string; Size: number; LastModified: string | null };

/** POST /v1/datasets/listfiles/{id}: one page of a folder (keys relative to the dataset). */
export type ListFilesResponse = {
  success: boolean;
  Name: string;
  Prefix: string;
  Contents: DatasetObject[];
  CommonPrefixes: { Prefix: string }[];
  IsTruncated: boolean;
  ContinuationToken: string | null;
  NextContinuationToken: string | null;
  FileCount: number;
  KeyCount: number;
};

/** POST /v1/datasets/createdatasetdirectory */
export type CreateFolderRequest = { id: string; path: string; name: string };
export type CreateFolderResponse = { success: boolean; message: string; Key: string };

/** POST /v1/datasets/deletedatasetobject/{id}: a path ending '/' deletes the whole folder. */
export type DeleteObjectsRequest = { path: string } | { paths: string[] };
export type DeleteObjectsResponse = { success: boolean; message: string; deleted: number };

export type PresignMethod = 'PUT' | 'GET';
/** POST /v1/datasets/getpresignedurl/{id} */
export type PresignedUrlResponse = { success: boolean; url: string; method: PresignMethod; key: string; expires_in: number };

/** A file's first rows or lines (getfilepreview). */
export type FilePreview = {
  format: 'csv' | 'json' | 'xml' | 'txt' | 'xlsx' | 'xls';
  columns: string[];
  rows: string[][];
  text: string | null;
  sheet: string | null;
  truncated: boolean;
};
export type FilePreviewResponse = { success: boolean; preview: FilePreview };

/** POST /v1/datasets/get/ludisurl/{id} */
export type AccessUrlResponse = {
  success: boolean;
  /** A presigned GET, valid 7 days, no API key needed. */
  temporary_url: string;
  /** Unix seconds. */
  expires_at: number;
  /** Needs the header `x-api-key: <key>`; answers with a fresh presigned GET. */
  permanent_url: string;
};
