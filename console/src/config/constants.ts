/** Business constants from spec 000 §9 and spec 001 §9. */

/** Success toasts: 3000 ms (spec 000 §9). */
export const TOAST_DURATION_MS = 3000;
/** Error toasts last 5 s (spec 001 §8). */
export const ERROR_TOAST_DURATION_MS = 5000;
export const TOAST_POSITION = 'top-right' as const;

export const MIN_PASSWORD_LENGTH = 6;
export const TWO_FACTOR_CODE_LENGTH = 6;
export const MAX_PINNED_INSIGHTS = 6;
/** Organization, user and metrics lists (spec 001 §9). */
export const LIST_PAGE_SIZE = 10;
export const SEARCH_DEBOUNCE_MS = 500;
/** Organization cards shown at a time in the admin portal carousel. */
export const CAROUSEL_CARDS = 4;
/** Superadmin login chart limit (spec 001 §9). */
export const LOGIN_CHART_LIMIT = 5;
export const PROJECT_METRICS_LIMIT = 10;

export const ROLES = ['developer', 'management', 'administrator', 'superadmin'] as const;
export type Role = (typeof ROLES)[number];
export const ROLE_LABELS: Record<string, string> = {
  developer: 'Developer',
  management: 'Manager',
  administrator: 'Administrator',
  superadmin: 'Superadmin',
};

export const FEATURE_KEYS = ['insights', 'projects', 'workflows', 'datasets', 'notebooks'] as const;
export type FeatureKey = (typeof FEATURE_KEYS)[number];

export const DATE_FORMATS = ['MM/DD/YY', 'DD/MM/YY', 'MMMM/DD/YY', 'DD/MMMM/YY'] as const;
export const DEFAULT_DATE_FORMAT = 'MM/DD/YY';

export const METRIC_PERIODS = ['day', 'week', 'month', 'year'] as const;
export type MetricPeriod = (typeof METRIC_PERIODS)[number];
export const DEFAULT_METRIC_PERIOD: MetricPeriod = 'week';

export const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg'] as const;
export const IMAGE_MIME_TYPES = ['image/png', 'image/jpeg'];

export const NOTEBOOKS_DEPRECATION =
  'Deprecated: You can continue to use Jupyter Notebooks but they are no longer supported';

export const ORGANIZATION_TIERS = ['free', 'paid'] as const;

/** Where the product documentation lives when GET /v1/config does not say. */
export const DEFAULT_DOCUMENTATION_URL = 'https://ludis.dev/docs';
