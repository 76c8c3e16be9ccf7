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

export type Flighting = { key: string; name: string; active: boolean; user_roles: string[] };

export type Organization = {
  id: Id;
  name: string;
  admin_email: string;
  description?: string | null;
  tier: string;
  max_seats: number;
  bucket_id?: Id | null;
  created_at?: string | null;
  is_2fa_required?: boolean;
  flightings?: Flighting[];
  /** Active users in the organization (from activeUserCounts or embedded). */
  active_users?: number;
};

export type Bucket = { id?: Id; name: string; region?: string | null };

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
export type ApiKeyResponse = Schemas['ApiKeyResponse'];

export type OrganizationsPage = Envelope & { organizations: Organization[]; total?: number };
export type OrganizationResponse = Envelope & { organization: Organization };
export type AvailableSeatsResponse = Envelope & { availableSeats: number; limitExceded?: boolean };
export type ActiveUserCountsResponse = Envelope & { counts: { organization: Id; count: number }[] };
export type BucketsResponse = Envelope & { buckets: Bucket[] };

export type FlightingResponse = Envelope & { flightings: Flighting[] };

export type ConfigResponse = Envelope & {
  support_email?: string | null;
  documentation_url?: string | null;
  roles?: string[];
  timezones?: string[];
};

export type MetricsSummary = Envelope & {
  metrics: Record<string, number>;
};
export type LoginPoint = { date: string; logins: number; orgName?: string | null };
export type LoginsResponse = Envelope & { logins: LoginPoint[] };
export type MetricRow = {
  entity_name?: string | null;
  first_name?: string | null;
  last_name?: string | null;
  email?: string | null;
  action?: string | null;
  date: string;
};
export type MetricRowsResponse = Envelope & { rows: MetricRow[]; total?: number };

export type PinnedInsight = {
  id: Id;
  name: string;
  description?: string | null;
  img_path?: string | null;
  app_type?: string | null;
};
export type PinListResponse = Envelope & { applications: PinnedInsight[] };
