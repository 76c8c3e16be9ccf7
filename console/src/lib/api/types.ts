/**
 * Names of the generated schemas of api/openapi.json (`npm run gen:api` writes `schema.d.ts`) that
 * the screens use. Request and answer types of the calls themselves come from the typed client
 * (`lib/api-client.ts`); nothing here restates a schema by hand: the document types every level,
 * role, kind and status as the enum it is.
 *
 * One kind of local type remains, marked GAP: the spec allows an answer the document does not
 * describe, and the console handles it too.
 */
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

export type Role = Schemas['Role'];
export type FeatureKey = Schemas['Feature'];
/** `none` (no access), `view`, `execute`, `edit`. */
export type AccessLevel = Schemas['AccessLevel'];
/** The levels a share grants. */
export type GrantedLevel = Exclude<AccessLevel, 'none'>;
export type EntityType = Schemas['EntityType'];

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
 * API refuses with 403 and an ErrorBody with `limitExceded`. The form handles both.
 */
export type CreateUserResponse = UserResponse & { limitExceded?: boolean };
/** GAP: the spec's seat check may answer `message` and `limitExceded`; `Seats` has neither. */
export type AvailableSeatsResponse = Schemas['Seats'] & { message?: string; limitExceded?: boolean };

export type FlightingResponse = Schemas['FlightingResponse'];
export type MetricsSummary = Schemas['OverviewResponse'];
/** One figure of the admin portal with its label and the API's definition of it. */
export type Figure = Schemas['FigureValue'];
export type LoginSeries = Schemas['LoginSeries'];
export type LoginSeriesInfo = Schemas['LoginSeriesInfo'];
export type LoginPoint = Schemas['LoginPoint'];
export type ActivityRow = Schemas['ActivityRow'];
export type ActivityAction = Schemas['ActivityAction'];
export type ActivityEntity = Schemas['ActivityEntity'];

/* ---- Insights, sharing and comments (issue 5) ---- */

export type InsightType = Schemas['AppType'];
export type InsightStatus = Schemas['InsightStatus'];
export type InsightView = Schemas['InsightView'];
export type InsightsPage = Schemas['InsightsPage'];
export type InsightResponse = Schemas['InsightResponse'];
export type InsightMessageResponse = Schemas['InsightMessage'];
export type PinListResponse = Schemas['PinList'];
export type NewInsightFields = Schemas['NewInsight'];
export type ImportAppFields = Schemas['ImportApp'];
export type InsightChanges = Schemas['InsightChanges'];
export type PinChange = Schemas['PinChange'];

export type SharePerson = Schemas['Person'];
export type ShareEntry = Schemas['ShareEntryView'];
export type ShareMember = Schemas['MemberView'];
export type OrganizationShare = Schemas['OrganizationShare'];
export type SharedWithResponse = Schemas['SharedWithResponse'];
export type ShareChange = Schemas['ShareChange'];

export type CommentListResponse = Schemas['Conversation'];

/* ---- Datasets (issue 6) ---- */

export type DatasetStatus = Schemas['DatasetStatus'];
export type DatasetView = Schemas['DatasetView'];
export type DatasetsPage = Schemas['DatasetsPage'];
export type DatasetResponse = Schemas['DatasetResponse'];
export type DatasetMessageResponse = Schemas['DatasetMessage'];
export type DatasetFields = Schemas['DatasetFields'];
/** One page of a folder, keys relative to the dataset (S3's ListObjectsV2 names). */
export type ListFilesResponse = Schemas['FileListing'];
export type CreateFolderRequest = Schemas['CreateDirectoryRequest'];
export type CreateFolderResponse = Schemas['CreateDirectoryResponse'];
export type DeleteObjectsResponse = Schemas['DeleteObjectsResponse'];
export type DatasetLink = Schemas['DatasetLink'];
export type DatasetPresignResponse = Schemas['DatasetPresignResponse'];
/** A file's first rows or lines. */
export type FilePreview = Schemas['FilePreview'];
export type FilePreviewResponse = Schemas['PreviewResponse'];

/* ---- Projects v2 (issue 14) ---- */

/** The language of a project's or an insight's code. */
export type Language = Schemas['Language'];
export type ProjectView = Schemas['ProjectView'];
/** The preview container that logs, web view and terminal need. */
export type PreviewState = Schemas['PreviewState'];
export type ProjectsPage = Schemas['ProjectsPage'];
export type ProjectDetail = Schemas['ProjectDetail'];
/** What Run or Publish runs: the entry file and the command (the launch rule). */
export type LaunchView = Schemas['LaunchView'];
export type ProjectAnswer = Schemas['ProjectAnswer'];
export type NewProjectFields = Schemas['NewProject'];
export type ProjectChanges = Schemas['ProjectChanges'];
/** One entry of a folder; `sha` is the git blob (file) or tree (dir) id at the branch head. */
export type RepoContentItem = Schemas['RepoContentItem'];
export type FileContent = Schemas['FileContent'];
export type CommitFileRequest = Schemas['CommitFileRequest'];
export type CommitAnswer = Schemas['CommitAnswer'];
export type DeleteFileRequest = Schemas['DeleteFileRequest'];
/** `value` is null unless the caller has edit access. */
export type EnvVar = Schemas['EnvVar'];
export type NewEnvVar = Schemas['NewEnvVar'];
/** An image of the administrator's list (`GET /v2/cluster/dockerimages/list`). */
export type DockerImage = Schemas['DockerImage'];
export type HardwareSize = Schemas['HardwareSize'];
export type SizesAnswer = Schemas['SizesAnswer'];
export type QuotaLine = Schemas['QuotaLine'];
export type ComputeLine = Schemas['ComputeLine'];

/* ---- Workflows v2 (issue 15) ---- */

export type WorkflowStatus = Schemas['WorkflowStatus'];
export type RunState = Schemas['RunState'];
/** A task's state; an earlier try's log has none (`TaskLog.state` null). */
export type TaskState = Schemas['TaskState'];
export type RunTrigger = Schemas['RunTrigger'];
export type EmailOn = Schemas['EmailOn'];
/** 'Mark State As': success or failed. */
export type MarkState = Schemas['MarkState'];
/** A designer node's kind of task; null until chosen. */
export type TaskType = Schemas['NodeTaskType'];
/** A node's task settings: a script's (fileName, image, installScript) or an upload's (fileName, dataset…). */
export type TaskData = Schemas['TaskData'];
export type NodeData = Schemas['NodeData'];
export type NodePosition = Schemas['NodePosition'];
/** A node as a request may send it: the API fills `type`, `position` and `data` when left out. */
export type DesignerNode = Schemas['DesignerNode'];
export type DesignerEdge = Schemas['DesignerEdge'];
export type WorkflowView = Schemas['WorkflowView'];
export type WorkflowsPage = Schemas['WorkflowsPage'];
export type WorkflowAnswer = Schemas['WorkflowAnswer'];
export type WorkflowMessage = Schemas['WorkflowMessage'];
export type DagInfo = Schemas['DagInfo'];
export type RunView = Schemas['RunView'];
export type RunsPage = Schemas['RunsPage'];
export type RunNowAnswer = Schemas['RunNowAnswer'];
export type TaskInstance = Schemas['TaskInstance'];
export type TaskLog = Schemas['TaskLog'];
/** The designer's graph and settings. */
export type VisualAnswer = Schemas['VisualAnswer'];
export type NewWorkflowFields = Schemas['NewWorkflow'];
export type WorkflowChanges = Schemas['WorkflowChanges'];
export type SaveWorkflowRequest = Schemas['SaveRequest'];
export type ScheduleRequest = Schemas['ScheduleRequest'];
export type MarkRequest = Schemas['MarkRequest'];
export type ClearRequest = Schemas['ClearRequest'];
export type PublishManualRequest = Schemas['PublishManualRequest'];
export type LatestRequest = Schemas['LatestRequest'];

/** The template apps' data calls (issue 17). */
export type TemplateGraphRequest = Schemas['GraphRequest'];
export type TemplateForecastRequest = Schemas['ForecastRequest'];
export type NewTemplateApp = Schemas['NewTemplateApp'];
export type ClusterView = Schemas['ClusterView'];

/* ---- Legacy projects and notebooks (issue 18, docs/contracts/notebooks.md) ---- */

/** A project of the notebook flavour, as the legacy lists and its page show it. */
export type LegacyProjectView = Schemas['LegacyProjectView'];
export type LegacyProjectsPage = Schemas['LegacyProjectsPage'];
export type LegacyProjectDetail = Schemas['LegacyProjectDetail'];
export type LegacyProjectAnswer = Schemas['LegacyProjectAnswer'];
export type NewLegacyProjectFields = Schemas['NewLegacyProject'];
export type LegacyProjectChanges = Schemas['LegacyProjectChanges'];
export type ProjectTemplate = Schemas['ProjectTemplateView'];
/** A notebook: an `.ipynb` file (`path`) of its project's repository. */
export type NotebookView = Schemas['NotebookView'];
export type NotebookDetail = Schemas['NotebookDetail'];
export type NotebookAnswer = Schemas['NotebookAnswer'];
export type NewNotebookFields = Schemas['NewNotebook'];
/** A notebook id to copy (`importNotebook`) or an `.ipynb` file's text (`file`). */
export type NotebookImportRequest = Schemas['ImportNotebookRequest'];
export type NotebookChanges = Schemas['NotebookChanges'];
export type NotebookOpenAnswer = Schemas['OpenAnswer'];
/** `commit` null: 'Nothing to commit'. */
export type NotebookCommitAnswer = Schemas['CommitNotebookAnswer'];
/** A legacy project's JupyterLab server. */
export type JupyterState = Schemas['JupyterState'];
