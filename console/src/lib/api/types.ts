/**
 * Wire types of the API. Where api/openapi.json describes a call, the type is the generated one
 * (`npm run gen:api` writes `schema.d.ts`); calls the document does not have yet (organizations,
 * flighting, config, metrics, pins) are written from the spec (000 §3, §7; 001 §3, §7).
 * Fetchers import their types from here only.
 */
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
