import { createBrowserRouter, createMemoryRouter, type RouteObject } from 'react-router';

import { Layout } from '@/app/routes/layout';
import { HomeRoute } from '@/app/routes/home';
import { NotFoundRoute } from '@/app/routes/not-found';
import { paths } from '@/config/paths';

export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: paths.home.path, element: <HomeRoute /> },
      { path: '*', element: <NotFoundRoute /> },
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
