/**
 * Wire types of the API, written from the spec (000 §3, §7; 001 §3, §7) until the API's
 * OpenAPI document is generated into `schema.d.ts` (`npm run gen:api`). Fetchers import their
 * types from here only, so switching to the generated types is one file.
 */
export type Id = string | number;

export type PhotoPath = string | { original?: string | null; small?: string | null } | null;

export type User = {
  uid: string;
  id: Id;
  email: string;
  first_name: string;
  last_name: string;
  role: string;
  status?: string | null;
  organization?: Id | null;
  timezone?: string | null;
  date_format?: string | null;
  photo_path?: PhotoPath;
  api_key?: string | null;
  git_username?: string | null;
  git_token?: string | null;
  enabled_2fa?: boolean;
  confirmed_2fa?: boolean;
  is_2fa_required?: boolean;
  secret_2fa?: string | null;
  secret_2fa_qr?: string | null;
  cluster_id?: Id | null;
  created_at?: string | null;
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

export type LoginResponse = Envelope & { token: string; refresh_token: string; user: User };
export type RefreshResponse = Envelope & { token: string; refresh_token?: string };
export type Verify2faResponse = Envelope & {
  token?: string;
  refresh_token?: string;
  user?: User;
  verified_2fa?: boolean;
};
export type Enable2faResponse = Envelope & {
  user?: User;
  secret_2fa?: string | null;
  secret_2fa_qr?: string | null;
};

export type UsersPage = Envelope & { users: User[]; total?: number };
export type UserResponse = Envelope & { user: User };
export type CreateUserResponse = Envelope & { user?: User; limitExceded?: boolean };
export type PresignResponse = Envelope & { urls: { presigned_url: string; photo_path: PhotoPath }[] };

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
