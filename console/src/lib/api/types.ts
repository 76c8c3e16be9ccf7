/**
 * Names of the generated schemas of api/openapi.json (`npm run gen:api` writes `schema.d.ts`) that
 * the screens use. Request and answer types of the calls themselves come from the typed client
 * (`lib/api-client.ts`); nothing here restates a schema by hand.
 *
 * Two kinds of local types remain, each marked:
 * - NARROWED: the document types a level, kind or status as a plain string; the console narrows it
 *   to the contract's values (an unknown value still renders: every lookup has a fallback).
 * - GAP: the document lacks or mistypes the field; the local type says what the API really sends.
 */
import type { AccessLevel, EntityType } from '@/config/constants';
import type { components } from '@/lib/api/schema';

/** The generated schemas of api/openapi.json. */
type Schemas = components['schemas'];

/** Every id the API hands out is a string. */
export type Id = string;

/** A profile photo as stored users may carry it: an object key, or the older `{original, small}` form. */
export type PhotoPath = string | { original?: string | null; small?: string | null } | null;

/**
 * A user as the API shows it. The secret fields are never in `UserView`: the enable call answers
 * the secret, which the console keeps on the stored user for the verify call.
 */
export type User = Schemas['UserView'] & {
  secret_2fa?: string | null;
  secret_2fa_qr?: string | null;
};

export type Flighting = Schemas['Flag'];
export type Organization = Schemas['OrganizationView'];
export type OrganizationFields = Schemas['OrganizationFields'];
export type OrganizationResponse = Schemas['OrganizationResponse'];
export type CreatedOrganization = Schemas['CreatedOrganization'];

export type LoginResponse = Schemas['SessionResponse'];
export type Verify2faRequest = Schemas['Verify2faRequest'];
export type Verify2faResponse = Schemas['SessionResponse'];
export type Enable2faResponse = Schemas['Enable2faResponse'];
export type ChangePasswordRequest = Schemas['ChangePasswordRequest'];
export type GitDetailRequest = Schemas['GitDetailRequest'];
export type NewUserFields = Schemas['NewUserFields'];
export type UserChanges = Schemas['UserChanges'];
export type Done = Schemas['Done'];
export type UserResponse = Schemas['UserResponse'];
export type ApiKeyResponse = Schemas['ApiKeyResponse'];

/**
 * GAP: the spec's 'Limit Reached' answer may come as a 2xx body with `limitExceded: true`; this
 * API refuses with 403 and an ErrorBody that carries `limitExceded` (`ApiError.with`), a field
 * ErrorBody does not declare. The form handles both.
 */
export type CreateUserResponse = UserResponse & { limitExceded?: boolean };
/** GAP: the spec's seat check may answer `message` and `limitExceded`; `Seats` has neither. */
export type AvailableSeatsResponse = Schemas['Seats'] & { message?: string; limitExceded?: boolean };

export type FlightingResponse = Schemas['FlightingResponse'];
export type MetricsSummary = Schemas['OverviewResponse'];
export type LoginPoint = Schemas['LoginPoint'];
export type ActivityRow = Schemas['ActivityRow'];

/* ---- Insights, sharing and comments (issue 5) ---- */

export type InsightType = 'application' | 'report' | 'user_report';
export type InsightStatus = 'running' | 'stopped' | 'starting' | 'external' | 'rendering' | 'rendered' | 'uploaded' | 'failed';

type Narrowed<T, K extends keyof T, R> = Omit<T, K> & R;

/** NARROWED: app_type, status and access_level. */
export type InsightView = Narrowed<Schemas['InsightView'], 'app_type' | 'status' | 'access_level', {
  app_type: InsightType;
  status: InsightStatus;
  access_level: AccessLevel;
}>;
export type InsightsPage = Narrowed<Schemas['InsightsPage'], 'applications', { applications: InsightView[] }>;
export type InsightResponse = Narrowed<Schemas['InsightResponse'], 'application', { application: InsightView }>;
export type InsightMessageResponse = Narrowed<Schemas['InsightMessage'], 'application', { application: InsightView }>;
export type PinListResponse = Narrowed<Schemas['PinList'], 'applications', { applications: InsightView[] }>;
export type NewInsightFields = Schemas['NewInsight'];
export type ImportAppFields = Schemas['ImportApp'];
export type InsightChanges = Schemas['InsightChanges'];
export type PinChange = Schemas['PinChange'];

export type SharePerson = Schemas['Person'];
/** NARROWED: access_level and to_entity_type. */
export type ShareEntry = Narrowed<Schemas['ShareEntryView'], 'access_level' | 'to_entity_type', {
  access_level: AccessLevel;
  to_entity_type: 'User' | 'Organization';
}>;
export type ShareMember = Narrowed<Schemas['MemberView'], 'access_level', { access_level?: AccessLevel | null }>;
export type OrganizationShare = Narrowed<Schemas['OrganizationShare'], 'access_level', { access_level?: AccessLevel | null }>;
/** NARROWED: the entity type, the levels and every entry's level. */
export type SharedWithResponse = Narrowed<
  Schemas['SharedWithResponse'],
  'entity_type' | 'access_level' | 'levels' | 'shares' | 'members' | 'organization',
  {
    entity_type: EntityType;
    access_level: AccessLevel;
    levels: AccessLevel[];
    shares: ShareEntry[];
    members: ShareMember[];
    organization?: OrganizationShare | null;
  }
>;
/** NARROWED: share_type, access_level and to_entity_type. */
export type ShareChange = Schemas['ShareChange'] & {
  share_type: 'share' | 'unshare';
  access_level: AccessLevel;
  to_entity_type: 'User' | 'Organization';
};

export type CommentListResponse = Schemas['Conversation'];

/* ---- Datasets (issue 6) ---- */

/** How the caller may use a dataset: its owner, or a share's level. */
export type DatasetAccessLevel = 'owner' | 'edit' | 'view';
export type DatasetStatus = 'ready' | 'pending' | 'deleting' | 'failed';

/** NARROWED: access_level, status and deletion_policy. */
export type DatasetView = Narrowed<Schemas['DatasetView'], 'access_level' | 'status' | 'deletion_policy', {
  access_level: DatasetAccessLevel;
  status: DatasetStatus;
  deletion_policy: 'Retain' | 'Delete';
}>;
export type DatasetsPage = Narrowed<Schemas['DatasetsPage'], 'datasets', { datasets: DatasetView[] }>;
export type DatasetResponse = Narrowed<Schemas['DatasetResponse'], 'dataset', { dataset: DatasetView }>;
export type DatasetMessageResponse = Narrowed<Schemas['DatasetMessage'], 'dataset', { dataset: DatasetView }>;
export type DatasetFields = Schemas['DatasetFields'];
/** One page of a folder, keys relative to the dataset (S3's ListObjectsV2 names). */
export type ListFilesResponse = Schemas['FileListing'];
export type CreateFolderResponse = Schemas['CreateDirectoryResponse'];
export type DeleteObjectsResponse = Schemas['DeleteObjectsResponse'];

/**
 * GAP: `POST /v1/datasets/createdatasetdirectory` takes the dataset as `dataset_id` "or `id`" (a
 * serde alias the document only mentions in prose); the console sends `id`.
 */
export type CreateFolderRequest = Omit<Schemas['CreateDirectoryRequest'], 'dataset_id'> & { id: string };

/**
 * GAP: the answer of `POST /v1/datasets/getpresignedurl/{id}`. The API has two schemas named
 * `PresignResponse` (datasets and users); the document keeps the users' one (`urls`), so this
 * route's answer is mistyped there.
 */
export type DatasetPresignResponse = { success: boolean; url: string; method: 'PUT' | 'GET'; key: string; expires_in: number };

/**
 * GAP: a file's first rows or lines. `PreviewResponse.preview` is an untyped object in the
 * document (`#[schema(value_type = Object)]` on `preview::Preview`).
 */
export type FilePreview = {
  format: 'csv' | 'json' | 'xml' | 'txt' | 'xlsx' | 'xls';
  columns: string[];
  rows: string[][];
  text: string | null;
  sheet: string | null;
  truncated: boolean;
};
export type FilePreviewResponse = Narrowed<Schemas['PreviewResponse'], 'preview', { preview: FilePreview }>;
