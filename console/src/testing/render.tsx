import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, type RouteObject } from 'react-router';

import { AppProvider } from '@/app/provider';
import { createQueryClient } from '@/lib/query-client';

/**
 * Renders `ui` at `url` inside the console's providers. `routes` adds sibling routes so tests can
 * see where a component navigated to.
 */
export function renderWithProviders(
  ui: ReactElement,
  { url = '/', path = '*', routes = [] }: { url?: string; path?: string; routes?: RouteObject[] } = {},
) {
  const queryClient = createQueryClient();
  const router = createMemoryRouter([{ path, element: ui }, ...routes], { initialEntries: [url] });
  const result = render(
    <AppProvider queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProvider>,
  );
  return { ...result, router, queryClient };
}

/** A route that only shows where the test ended up. */
export function landing(path: string, text = `landed on ${path}`): RouteObject {
  return { path, element: <p>{text}</p> };
}

/**
 * Renders `ui` inside the console's providers without a router; `rerender` keeps them, so a test
 * can change the props of a component that needs no route.
 */
export function renderInProviders(ui: ReactElement) {
  const queryClient = createQueryClient();
  return { ...render(ui, { wrapper: ({ children }) => <AppProvider queryClient={queryClient}>{children}</AppProvider> }), queryClient };
}
