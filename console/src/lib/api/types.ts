/**
 * Wire types of the API: names of the generated schemas of api/openapi.json (`npm run gen:api`
 * writes `schema.d.ts`). Fetchers import their types from here only.
 */
import type { AccessLevel, EntityType } from '@/config/constants';
import type { components } from '@/lib/api/schema';

export type Id = string | number;

export type PhotoPath = string | { original?: string | null; small?: string | null } | null;

/** The generated schemas of api/openapi.json (`npm run gen:api`). */
type Schemas = components['schemas'];

/**
 * A user as the API shows it. The secret fields are never in `UserView`; the enable call answers
 * the secret, which the console keeps on the stored user for the verify call.
 */
export type User = Schemas['UserView'] & {
  secret_2fa?: string | null;
  secret_2fa_qr?: string | null;
};

export type Flighting = Schemas['Flag'];
export type Organization = Schemas['OrganizationView'];
export type OrganizationFields = Schemas['OrganizationFields'];
export type Bucket = Schemas['Bucket'];

/** Every answer carries `success`; a false one is an error (spec 001 §8). */
export type Envelope = { success?: boolean; message?: string };

export type LoginResponse = Schemas['SessionResponse'];
export type RefreshResponse = Schemas['TokenPair'];
export type Verify2faRequest = Schemas['Verify2faRequest'];
export type Verify2faResponse = Schemas['SessionResponse'];
export type Enable2faResponse = Schemas['Enable2faResponse'];
export type ChangePasswordRequest = Schemas['ChangePasswordRequest'];
export type GitDetailRequest = Schemas['GitDetailRequest'];
export type NewUserFields = Schemas['NewUserFields'];
export type UserChanges = Schemas['UserChanges'];
export type Done = Schemas['Done'];
export type ErrorBody = Schemas['ErrorBody'];

export type UsersPage = Schemas['UserList'];
export type UserResponse = Schemas['UserResponse'];
/** The spec's 'Limit Reached' answer may come as `limitExceded` on the body. */
export type CreateUserResponse = UserResponse & { limitExceded?: boolean };
export type PresignResponse = Schemas['PresignResponse'];
export type DefaultImagesResponse = Schemas['DefaultImages'];
export type DefaultImage = Schemas['DefaultImage'];
export type ApiKeyResponse = Schemas['ApiKeyResponse'];

export type OrganizationsPage = Schemas['OrganizationList'];
export type OrganizationResponse = Schemas['OrganizationResponse'];
export type CreatedOrganization = Schemas['CreatedOrganization'];
export type AvailableSeatsResponse = Schemas['Seats'] & { message?: string; limitExceded?: boolean };
export type ActiveUserCountsResponse = Schemas['ActiveUserCounts'];
export type BucketsResponse = Schemas['BucketList'];

export type FlightingResponse = Schemas['FlightingResponse'];
export type FlightingUpdate = Schemas['FlightingUpdate'];

export type ConfigResponse = Schemas['ConfigResponse'];
export type ClientConfig = Schemas['ClientConfig'];

export type MetricsSummary = Schemas['OverviewResponse'];
export type LoginPoint = Schemas['LoginPoint'];
export type LoginsResponse = Schemas['LoginSeries'];
export type MetricRow = Schemas['ActivityRow'];
export type MetricRowsResponse = Schemas['ActivityPage'];
export type UsageResponse = Schemas['UsageResponse'];

/* ---- Insights, sharing and comments (issue 5) ----
 * The document types levels, kinds and statuses as strings; the console narrows them to the
 * contract's values (an unknown value still renders: every lookup has a fallback). */

export type InsightType = 'application' | 'report' | 'user_report';
export type InsightStatus = 'running' | 'stopped' | 'starting' | 'external' | 'rendering' | 'rendered' | 'uploaded' | 'failed';

type Narrowed<T, K extends keyof T, R> = Omit<T, K> & R;

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
export type PinResponse = Schemas['PinResponse'];
export type RunRequest = Schemas['RunRequest'];

export type SharePerson = Schemas['Person'];
export type ShareEntry = Narrowed<Schemas['ShareEntryView'], 'access_level' | 'to_entity_type', {
  access_level: AccessLevel;
  to_entity_type: 'User' | 'Organization';
}>;
export type ShareMember = Narrowed<Schemas['MemberView'], 'access_level', { access_level?: AccessLevel | null }>;
export type OrganizationShare = Narrowed<Schemas['OrganizationShare'], 'access_level', { access_level?: AccessLevel | null }>;
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
export type ShareChange = Schemas['ShareChange'] & {
  share_type: 'share' | 'unshare';
  access_level: AccessLevel;
  to_entity_type: 'User' | 'Organization';
};
export type ShareRequest = { share: Narrowed<Schemas['ShareBody'], 'shares' | 'entity_type', { entity_type: EntityType; shares: ShareChange[] }> };
export type DirectoryShareRequest = {
  share: Narrowed<Schemas['DirectoryShareBody'], 'shares' | 'entity_type', { entity_type: EntityType; shares: ShareChange[] }>;
};

export type Comment = Schemas['CommentView'];
export type CommentListResponse = Schemas['Conversation'];
export type CreateCommentResponse = Schemas['CommentResponse'];
