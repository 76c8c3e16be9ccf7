/**
 * Every route of the console: its path pattern and an href builder.
 * Route paths are built here and nowhere else.
 */
export const paths = {
  root: { path: '/', getHref: () => '/' },
  home: { path: '/home', getHref: () => '/home' },

  login: { path: '/login', getHref: () => '/login' },
  register: { path: '/register', getHref: () => '/register' },
  resetPassword: { path: '/resetpassword', getHref: () => '/resetpassword' },
  forgotPassword: { path: '/forgot_password', getHref: () => '/forgot_password' },
  twoFactorEnable: { path: '/two-factor-auth-enable', getHref: () => '/two-factor-auth-enable' },
  twoFactorVerify: { path: '/two-factor-auth-verify', getHref: () => '/two-factor-auth-verify' },

  changePassword: { path: '/changepassword', getHref: () => '/changepassword' },
  profile: { path: '/profile-setting', getHref: () => '/profile-setting' },

  insights: {
    path: '/insights',
    /** `screen`: Dashboard (default), Reports or Applications (spec 000 §4). */
    getHref: (screen?: string) => (screen ? `/insights?screen=${encodeURIComponent(screen)}` : '/insights'),
  },
  /** The app open page: the insight in a frame, with its comments (spec 001 §2). */
  app: { path: '/app/:id', getHref: (id: string | number) => `/app/${encodeURIComponent(String(id))}` },
  /** The four-step wizard of an app from a template (spec 001 §2, §4). */
  addTemplate: { path: '/add-template', getHref: () => '/add-template' },
  projects: { path: '/projectsv2', getHref: () => '/projectsv2' },
  /** A project's workspace (spec 001 §2 "Project v2 detail"). */
  project: { path: '/projectsv2/:id', getHref: (id: string) => `/projectsv2/${encodeURIComponent(id)}` },
  /** The legacy (notebook) projects: 'My Projects' / 'Shared With Me' (spec 000 §2, 001 §2). */
  notebooks: { path: '/projects', getHref: () => '/projects' },
  legacyProjectNew: { path: '/projects/new', getHref: () => '/projects/new' },
  /** A legacy project: overview, its notebooks and the discussion (spec 001 §2). */
  legacyProject: { path: '/projects/:id', getHref: (id: string) => `/projects/${encodeURIComponent(id)}` },
  legacyProjectEdit: { path: '/projects/:id/edit', getHref: (id: string) => `/projects/${encodeURIComponent(id)}/edit` },
  /** The create-notebook form of a legacy project. */
  addNotebook: { path: '/add-notebooks', getHref: (projectId: string) => `/add-notebooks?project=${encodeURIComponent(projectId)}` },
  /** The import-notebook form of a legacy project. */
  importNotebook: { path: '/import-notebooks', getHref: (projectId: string) => `/import-notebooks?project=${encodeURIComponent(projectId)}` },
  /** A notebook open in JupyterLab. */
  notebook: { path: '/notebooks/:id', getHref: (id: string) => `/notebooks/${encodeURIComponent(id)}` },
  notebookEdit: { path: '/notebooks/:id/edit', getHref: (id: string) => `/notebooks/${encodeURIComponent(id)}/edit` },
  notebookPreview: { path: '/notebooks/:id/preview', getHref: (id: string) => `/notebooks/${encodeURIComponent(id)}/preview` },
  workflows: { path: '/workflows', getHref: () => '/workflows' },
  /** A workflow's details: runs, tasks and logs (spec 001 §2 "Workflow detail"). */
  workflow: { path: '/workflows/:id', getHref: (id: string) => `/workflows/${encodeURIComponent(id)}` },
  /** The visual designer (spec 001 §2 "Visual designer"). */
  visualWorkflow: { path: '/visual-workflows/:id', getHref: (id: string) => `/visual-workflows/${encodeURIComponent(id)}` },
  datasets: { path: '/datasets', getHref: () => '/datasets' },
  datasetNew: { path: '/datasets/new', getHref: () => '/datasets/new' },
  datasetEdit: {
    path: '/datasets/edit/:id',
    getHref: (id: string) => `/datasets/edit/${encodeURIComponent(id)}`,
  },
  /** A dataset; `folder` (relative, ends with '/') opens that folder of it. */
  dataset: {
    path: '/datasets/:id',
    getHref: (id: string, folder?: string) =>
      `/datasets/${encodeURIComponent(id)}${folder ? `?path=${encodeURIComponent(folder)}` : ''}`,
  },
  /** The web3 collections (superadmins; spec 001 §2, docs/contracts/web3.md). */
  collections: { path: '/collections', getHref: () => '/collections' },
  collectionNew: { path: '/collections/new', getHref: () => '/collections/new' },
  /** The web3 page: a collection's graphs; `slug` picks the collection. */
  crypto: {
    path: '/crypto',
    getHref: (slug?: string) => (slug ? `/crypto?slug=${encodeURIComponent(slug)}` : '/crypto'),
  },

  organizations: { path: '/organizations', getHref: () => '/organizations' },
  organizationNew: {
    path: '/organizations/new',
    /** From the admin portal the form asks for more (spec 001 §5). */
    getHref: (from?: 'admin-portal') => (from ? `/organizations/new?from=${from}` : '/organizations/new'),
  },
  organization: {
    path: '/organizations/:organizationId',
    getHref: (organizationId: string | number) => `/organizations/${organizationId}`,
  },
  organizationUsers: {
    path: '/organizations/:organizationId/users',
    getHref: (organizationId: string | number) => `/organizations/${organizationId}/users`,
  },
  organizationUserNew: {
    path: '/organizations/:organizationId/users/new',
    getHref: (organizationId: string | number, from?: 'admin-portal') =>
      `/organizations/${organizationId}/users/new${from ? `?from=${from}` : ''}`,
  },
  organizationUserEdit: {
    path: '/organizations/:organizationId/users/edit/:userId',
    getHref: (organizationId: string | number, userId: string | number) =>
      `/organizations/${organizationId}/users/edit/${userId}`,
  },
  organizationFlightSettings: {
    path: '/organizations/:organizationId/flight-settings',
    getHref: (organizationId: string | number) => `/organizations/${organizationId}/flight-settings`,
  },
  flightSettings: { path: '/flight-settings', getHref: () => '/flight-settings' },
  manageOrganizations: { path: '/manage-organizations', getHref: () => '/manage-organizations' },
  adminPortal: { path: '/admin-portal', getHref: () => '/admin-portal' },
} as const;

/** Routes reachable without a token (spec 000 §2 "Public routes"). */
export const PUBLIC_PATHS: readonly string[] = [
  paths.login.path,
  paths.register.path,
  paths.resetPassword.path,
  paths.forgotPassword.path,
];

/** The two-factor pages, reachable only while the sign-in waits for a second factor. */
export const TWO_FACTOR_PATHS: readonly string[] = [paths.twoFactorEnable.path, paths.twoFactorVerify.path];
