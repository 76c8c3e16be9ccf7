import { createBrowserRouter, createMemoryRouter, Navigate, type RouteObject } from 'react-router';

import { RouteError } from '@/app/routes/route-error';
import { PageLoader, RootRoute } from '@/app/routes/root';
import { RequireAdmin } from '@/components/require-admin';
import { paths } from '@/config/paths';

/**
 * Every screen is its own chunk (route-level code splitting); only the guard and the loader are
 * in the entry chunk.
 */
export const routes: RouteObject[] = [
  {
    element: <RootRoute />,
    errorElement: <RouteError />,
    hydrateFallbackElement: <PageLoader />,
    children: [
      { path: paths.login.path, lazy: () => import('@/app/routes/auth/login').then((m) => ({ Component: m.LoginRoute })) },
      ...[paths.register.path, paths.resetPassword.path, paths.forgotPassword.path].map((path) => ({
        path,
        lazy: () => import('@/app/routes/auth/account-help').then((m) => ({ Component: m.AccountHelpRoute })),
      })),
      {
        path: paths.twoFactorVerify.path,
        lazy: () => import('@/app/routes/auth/two-factor-verify').then((m) => ({ Component: m.TwoFactorVerifyRoute })),
      },
      {
        path: paths.twoFactorEnable.path,
        lazy: () => import('@/app/routes/auth/two-factor-enable').then((m) => ({ Component: m.TwoFactorEnableRoute })),
      },
      {
        lazy: () => import('@/app/routes/app-layout').then((m) => ({ Component: m.AppLayoutRoute })),
        children: [
          ...[paths.root.path, paths.home.path].map((path) => ({
            path,
            lazy: () => import('@/app/routes/home').then((m) => ({ Component: m.HomeRoute })),
          })),
          {
            path: paths.profile.path,
            lazy: () => import('@/app/routes/profile').then((m) => ({ Component: m.ProfileRoute })),
          },
          {
            path: paths.changePassword.path,
            lazy: () => import('@/app/routes/auth/change-password').then((m) => ({ Component: m.ChangePasswordRoute })),
          },
          {
            path: paths.insights.path,
            lazy: () => import('@/app/routes/insights').then((m) => ({ Component: m.InsightsRoute })),
          },
          {
            path: paths.app.path,
            lazy: () => import('@/app/routes/app-view').then((m) => ({ Component: m.AppViewRoute })),
          },
          {
            path: paths.addTemplate.path,
            lazy: () => import('@/app/routes/add-template').then((m) => ({ Component: m.AddTemplateRoute })),
          },
          {
            path: paths.datasets.path,
            lazy: () => import('@/app/routes/datasets').then((m) => ({ Component: m.DatasetsRoute })),
          },
          {
            path: paths.datasetNew.path,
            lazy: () => import('@/app/routes/datasets').then((m) => ({ Component: m.DatasetNewRoute })),
          },
          {
            path: paths.datasetEdit.path,
            lazy: () => import('@/app/routes/datasets').then((m) => ({ Component: m.DatasetEditRoute })),
          },
          {
            path: paths.dataset.path,
            lazy: () => import('@/app/routes/datasets').then((m) => ({ Component: m.DatasetRoute })),
          },
          {
            path: paths.projects.path,
            lazy: () => import('@/app/routes/projects').then((m) => ({ Component: m.ProjectsRoute })),
          },
          {
            path: paths.project.path,
            lazy: () => import('@/app/routes/projects').then((m) => ({ Component: m.ProjectRoute })),
          },
          {
            path: paths.workflows.path,
            lazy: () => import('@/app/routes/workflows').then((m) => ({ Component: m.WorkflowsRoute })),
          },
          {
            path: paths.workflow.path,
            lazy: () => import('@/app/routes/workflows').then((m) => ({ Component: m.WorkflowRoute })),
          },
          {
            path: paths.visualWorkflow.path,
            lazy: () => import('@/app/routes/visual-workflow').then((m) => ({ Component: m.VisualWorkflowRoute })),
          },
          // The legacy (notebook) projects and their notebooks (issue 18).
          ...(
            [
              [paths.notebooks, 'LegacyProjectsRoute'],
              [paths.legacyProjectNew, 'LegacyProjectNewRoute'],
              [paths.legacyProject, 'LegacyProjectRoute'],
              [paths.legacyProjectEdit, 'LegacyProjectEditRoute'],
              [paths.addNotebook, 'AddNotebookRoute'],
              [paths.importNotebook, 'ImportNotebookRoute'],
              [paths.notebook, 'NotebookRoute'],
              [paths.notebookEdit, 'NotebookEditRoute'],
              [paths.notebookPreview, 'NotebookPreviewRoute'],
            ] as const
          ).map(([p, name]) => ({
            path: p.path,
            lazy: () => import('@/app/routes/notebooks').then((m) => ({ Component: m[name] })),
          })),
          // The web3 page: every signed-in user (issue 18).
          {
            path: paths.crypto.path,
            lazy: () => import('@/app/routes/web3').then((m) => ({ Component: m.CryptoRoute })),
          },
          // Administration: the role is checked before any of these screens loads or asks the API.
          {
            element: <RequireAdmin />,
            children: [
              {
                path: paths.organizations.path,
                lazy: () => import('@/app/routes/organizations/list').then((m) => ({ Component: m.OrganizationsRoute })),
              },
              {
                path: paths.organization.path,
                lazy: () => import('@/app/routes/organizations/edit').then((m) => ({ Component: m.OrganizationEditRoute })),
              },
              {
                path: paths.organizationUsers.path,
                lazy: () => import('@/app/routes/users/list').then((m) => ({ Component: m.OrganizationUsersRoute })),
              },
              {
                path: paths.organizationUserNew.path,
                lazy: () => import('@/app/routes/users/edit').then((m) => ({ Component: m.UserNewRoute })),
              },
              {
                path: paths.organizationUserEdit.path,
                lazy: () => import('@/app/routes/users/edit').then((m) => ({ Component: m.UserEditRoute })),
              },
              ...[paths.flightSettings.path, paths.organizationFlightSettings.path].map((path) => ({
                path,
                lazy: () => import('@/app/routes/flight-settings').then((m) => ({ Component: m.FlightSettingsRoute })),
              })),
              {
                path: paths.manageOrganizations.path,
                lazy: () => import('@/app/routes/manage-organizations').then((m) => ({ Component: m.ManageOrganizationsRoute })),
              },
              {
                path: paths.adminPortal.path,
                lazy: () => import('@/app/routes/admin-portal').then((m) => ({ Component: m.AdminPortalRoute })),
              },
              {
                element: <RequireAdmin superadmin />,
                children: [
                  {
                    path: paths.organizationNew.path,
                    lazy: () => import('@/app/routes/organizations/edit').then((m) => ({ Component: m.OrganizationNewRoute })),
                  },
                  // The web3 collections are managed by superadmins (docs/contracts/web3.md).
                  {
                    path: paths.collections.path,
                    lazy: () => import('@/app/routes/web3').then((m) => ({ Component: m.CollectionsRoute })),
                  },
                  {
                    path: paths.collectionNew.path,
                    lazy: () => import('@/app/routes/web3').then((m) => ({ Component: m.CollectionNewRoute })),
                  },
                ],
              },
            ],
          },
        ],
      },
      // Unknown paths redirect home (spec 000 §2).
      { path: '*', element: <Navigate to={paths.root.getHref()} replace /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}

/** A router for tests, starting at `url`. */
export function createTestRouter(url: string) {
  return createMemoryRouter(routes, { initialEntries: [url] });
}
