/** Business constants from spec 000 §9 and spec 001 §9. */
import type { AccessLevel, EntityType, FeatureKey, GrantedLevel, Role } from '@/lib/api/types';

/** Success toasts: 3000 ms (spec 000 §9). */
export const TOAST_DURATION_MS = 3000;
/** Error toasts last 5 s (spec 001 §8). */
export const ERROR_TOAST_DURATION_MS = 5000;
export const TOAST_POSITION = 'top-right' as const;

export const MIN_PASSWORD_LENGTH = 6;
export const TWO_FACTOR_CODE_LENGTH = 6;
export const MAX_PINNED_INSIGHTS = 6;
/** Organization, user, collection and metrics lists (spec 001 §9). */
export const LIST_PAGE_SIZE = 10;
export const SEARCH_DEBOUNCE_MS = 500;
/** Organization cards shown at a time in the admin portal carousel. */
export const CAROUSEL_CARDS = 4;
/** Superadmin login chart limit (spec 001 §9). */
export const LOGIN_CHART_LIMIT = 5;
export const PROJECT_METRICS_LIMIT = 10;

export const ROLES = ['developer', 'management', 'administrator', 'superadmin'] as const satisfies readonly Role[];
export const ROLE_LABELS: Record<string, string> = {
  developer: 'Developer',
  management: 'Manager',
  administrator: 'Administrator',
  superadmin: 'Superadmin',
};

export const FEATURE_KEYS = ['insights', 'projects', 'workflows', 'datasets', 'notebooks'] as const satisfies readonly FeatureKey[];

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

/* ---- Insights (spec 000 §2, §9; spec 001 §2, §4, §9) ---- */

/** Default page size of the insights list (spec 000 §9). */
export const INSIGHTS_PAGE_SIZE = 12;
/** Card truncation: names 22, descriptions 25 characters, cut text ends with '...'. */
export const INSIGHT_NAME_MAX = 22;
export const INSIGHT_DESCRIPTION_MAX = 25;
export const TRUNCATION_SUFFIX = '...';

export const INSIGHT_SCREENS = ['Dashboard', 'Reports', 'Applications'] as const;
export type InsightScreen = (typeof INSIGHT_SCREENS)[number];
export const DEFAULT_INSIGHT_SCREEN: InsightScreen = 'Dashboard';

/** Filter options with the spec's labels (spec 001 §9). */
export const INSIGHT_FILTERS = [
  { value: 'all', label: 'All Apps' },
  { value: 'starred', label: 'Starred' },
  { value: 'owned', label: 'Created by me' },
  { value: 'shared', label: 'Shared with me' },
  { value: 'template', label: 'Template' },
] as const;
export type InsightFilter = (typeof INSIGHT_FILTERS)[number]['value'];
export const DEFAULT_INSIGHT_FILTER: InsightFilter = 'all';

export const INSIGHT_SORT_FIELDS = ['name', 'created_at', 'updated_at'] as const;
export type InsightSortField = (typeof INSIGHT_SORT_FIELDS)[number];
export const SORT_OPERATORS = ['ASC', 'DESC'] as const;
export type SortOperator = (typeof SORT_OPERATORS)[number];
/** Default list query: sort DESC by created_at (spec 000 §9). */
export const DEFAULT_INSIGHT_SORT = { sortBy: 'created_at', sortOperator: 'DESC' } as const;

/** Where the card/table choice of the insights list is remembered (spec 001 §2). */
export const INSIGHTS_VIEW_STORAGE_KEY = 'insights_view';
export const INSIGHT_VIEWS = ['card', 'table'] as const;
export type InsightViewMode = (typeof INSIGHT_VIEWS)[number];

/** The app page sets the frame's address 1 s after the app loaded (spec 001 §9). */
export const APP_FRAME_DELAY_MS = 1000;
/** Discussion comments poll every 5 s (spec 001 §9). */
export const COMMENTS_POLL_MS = 5000;
export const MAX_COMMENT_LENGTH = 5000;
/** The number of default insight images (spec 000 §9). */
export const DEFAULT_IMAGE_COUNT = 15;
/** The largest report PDF the API takes (contract: 50 MiB). */
export const MAX_REPORT_BYTES = 50 * 1024 * 1024;

/* ---- Sharing (spec 000 §3–§6, §9) ---- */

export const ACCESS_LEVELS = ['view', 'execute', 'edit'] as const satisfies readonly GrantedLevel[];
export const DEFAULT_ACCESS_LEVEL: GrantedLevel = 'view';
export const ACCESS_LEVEL_LABELS: Record<AccessLevel, string> = { none: 'None', view: 'Viewer', execute: 'Executor', edit: 'Editor' };
export const REVOKE_ACCESS_LABEL = 'Revoke Access';
/** Entity types as the API names them (spec 000 §9). */
export const ENTITY_TYPES = ['Application', 'Insight', 'Project', 'Project_V2', 'Dataset', 'Workflow'] as const satisfies readonly EntityType[];

/* ---- Datasets (spec 001 §2, §5, §6, §9; issue 6 contract) ---- */

/** Rows per page of the dataset list (the API's default page size). */
export const DATASETS_PAGE_SIZE = 10;
/** Files and folders per page of a dataset's listing (the API's default `limit`, at most 1000). */
export const DATASET_FILES_PAGE_SIZE = 100;
/** The list's filters with their tab labels. */
export const DATASET_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'owned', label: 'Created by me' },
  { value: 'shared', label: 'Shared with me' },
  { value: 'sample', label: 'Samples' },
] as const;
export type DatasetFilter = (typeof DATASET_FILTERS)[number]['value'];
export const DEFAULT_DATASET_FILTER: DatasetFilter = 'all';
/** Upload accepts these, several files at a time (spec 001 §2). */
export const DATASET_EXTENSIONS = ['.csv', '.json', '.xml', '.txt', '.xlsx', '.xls'] as const;
/** A copy button says 'Copied' this long (spec 001 §9). */
export const COPY_CONFIRMATION_MS = 700;
/** Uploads or downloads running at once. */
export const TRANSFER_CONCURRENCY = 3;
/** Description cut in list rows (spec 001 §9). */
export const ROW_DESCRIPTION_MAX = 75;

/* ---- Projects v2 (spec 001 §2, §4–§6, §9; docs/contracts/projects-v2.md) ---- */

/** Rows per page of the project list (spec 000 §9: 12 for projects lists). */
export const PROJECTS_PAGE_SIZE = 12;
export const PROJECT_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'owned', label: 'Created by me' },
  { value: 'shared', label: 'Shared with me' },
] as const;
export const PROJECT_LANGUAGES = [
  { value: 'python', label: 'Python' },
  { value: 'r', label: 'R' },
] as const;
/** File navigator width (spec 001 §9). */
export const FILE_NAVIGATOR_WIDTH = { initial: 250, min: 120, max: 500 } as const;
/** Dev tools side panel width (spec 001 §9). */
export const DEV_TOOLS_WIDTH = { initial: 500, min: 200, max: 550 } as const;
/** The app page's side console width (spec 001 §9 "Console panel 500 px wide"). */
export const CONSOLE_PANEL_WIDTH = 500;
/** Log lines kept by the log viewer (spec 001 §9). */
export const LOG_BUFFER_LINES = 100;
/** Files opened in a new tab instead of the editor (spec 001 §9). */
export const IMAGE_FILE_EXTENSIONS = ['.jpg', '.jpeg', '.png', '.gif', '.svg'] as const;
export const EDITOR_TAB_SIZE = 2;
/** How often a starting preview is checked (GET /v2/projects/check/{id}); ours, the spec says none. */
export const PREVIEW_CHECK_MS = 2000;
/** How often a running preview (or app) is looked at again: it may fail later. */
export const PREVIEW_WATCH_MS = 10_000;
/** How often the insights list looks again while a card's app starts or its report renders. */
export const INSIGHTS_WATCH_MS = 3000;
/** How often a starting app (or rendering report) is looked at again on its page. */
export const INSIGHT_CHECK_MS = 3000;
/** Largest file the git layer takes (contract: 10 MiB). */
export const MAX_PROJECT_FILE_BYTES = 10 * 1024 * 1024;
/** Websocket reconnects: 1 s, 2 s, 4 s … at most 30 s apart, 8 tries, then the viewer gives up. */
export const STREAM_BACKOFF = { initialMs: 1000, maxMs: 30_000, maxAttempts: 8 } as const;

/* ---- Workflows (spec 001 §2, §4–§6, §9; docs/contracts/workflows.md) ---- */

/** Rows per page of the workflow list (the contract's default). */
export const WORKFLOWS_PAGE_SIZE = 20;
export const WORKFLOW_FILTERS = [
  { value: 'all', label: 'All' },
  { value: 'owned', label: 'Created by me' },
  { value: 'shared', label: 'Shared with me' },
] as const;
export type WorkflowFilter = (typeof WORKFLOW_FILTERS)[number]['value'];
/** The workflow list refreshes every 60 s (spec 001 §9). */
export const WORKFLOWS_REFRESH_MS = 60_000;
/** Task history: 10 runs per page (spec 001 §9). */
export const RUNS_PAGE_SIZE = 10;
/** Latest logs: the newest 5 runs; "download all" asks for 'all' (spec 001 §9). */
export const LATEST_LOGS_LIMIT = 5;
/** The most logs one latest-logs answer holds (the API's cap). */
export const LATEST_LOGS_MAX = 500;
/** Task instances asked for per run: all of them (a drawn DAG has at most 100 tasks, a DAG file
 * at most 1,000, the API's cap). */
export const TASKS_PAGE_LIMIT = 1000;
/** How often a run in flight, or a workflow being initialized, is asked again (ours; the spec says none). */
export const WORKFLOW_POLL_MS = 3000;
/** How long a run's task grid keeps polling after a mark or a re-run, even when every task shows
 * finished: the operator starts the tasks downstream of a task marked success a moment later. */
export const WORKFLOW_FOLLOW_MS = 60_000;
/** Workflow picker labels show the first 7 characters of the id (spec 001 §9). */
export const WORKFLOW_ID_LABEL_LENGTH = 7;
/** The zoom range of the workflow designer and the web3 transaction graph (spec 001 §9 "Graph zoom 0.3 to 3"). */
export const GRAPH_ZOOM = { min: 0.3, max: 3 } as const;

/* ---- Legacy projects and notebooks (spec 000 §2, 001 §2, §5, §9; docs/contracts/notebooks.md) ---- */

/** Rows per page of the legacy project lists (the contract's default `pageSize`). */
export const LEGACY_PROJECTS_PAGE_SIZE = 10;
/** The legacy list's tabs (spec 000 §2). */
export const LEGACY_PROJECT_TABS = [
  { value: 'mine', label: 'My Projects' },
  { value: 'shared', label: 'Shared With Me' },
] as const;
export type LegacyProjectTab = (typeof LEGACY_PROJECT_TABS)[number]['value'];
/** Only projects whose type includes this are listed (spec 000 §2). */
export const LEGACY_LISTED_TYPE = 'report';
/** The create form's defaults (spec 001 §2): author '{name}' (the user's name), size, type, language. */
export const LEGACY_PROJECT_DEFAULTS = { size: '5', type: 'report', language: 'python' } as const;
/** Workspace size in GiB (contract). */
export const LEGACY_PROJECT_SIZE = { min: 1, max: 100 } as const;
/** The one notebook status counted and offered for import (spec 000 §9, 001 §3). */
export const ACTIVE_NOTEBOOK_STATUS = 'active';
/** The JupyterLab and preview frames appear this long after their call succeeded (spec 001 §9 "Notebook iframe delay 5 s"). */
export const NOTEBOOK_FRAME_DELAY_MS = 5000;
/** How often a starting JupyterLab is asked about (GET /v1/notebook/detail/{id}); ours, the spec says none. */
export const JUPYTER_CHECK_MS = 2000;
/** Largest .ipynb file the import takes (contract: 10 MiB). */
export const MAX_NOTEBOOK_BYTES = 10 * 1024 * 1024;
/** Notebook names: at most 128 characters (contract). */
export const MAX_NOTEBOOK_NAME = 128;

/* ---- Web3 collections and graphs (spec 001 §2, §5, §9; docs/contracts/web3.md) ---- */

/** The chains a collection can be on (spec 001 §9). */
export const CHAINS = ['ETHEREUM', 'POLYGON'] as const;
/** The collection list shows this much of a symbol, the whole in a tooltip (spec 001 §9). */
export const COLLECTION_SYMBOL_MAX = 6;
/** A contract address: letters and digits, exactly this long (spec 001 §5). */
export const CONTRACT_ADDRESS_LENGTH = 42;
/** The list asks again this often while a collection is indexing (issue 18: 'every 2 s'). */
export const COLLECTIONS_POLL_MS = 2000;
/** The graphs of a collection still indexing are asked again this often (ours; the spec says none). */
export const WEB3_GRAPH_POLL_MS = 5000;
/** The web3 page's picker lists this many collections (the contract's largest page). */
export const COLLECTION_PICKER_SIZE = 100;
