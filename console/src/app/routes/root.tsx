import { Center, Loader } from '@mantine/core';
import { Suspense } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';

import { useSession } from '@/lib/auth';
import { guardRedirect } from '@/lib/route-guard';

/** Applies the route guard on every navigation, then renders the matched route. */
export function RootRoute() {
  const session = useSession();
  const { pathname } = useLocation();
  const target = guardRedirect(pathname, session);
  if (target !== null && target !== pathname) return <Navigate to={target} replace />;
  return (
    <Suspense fallback={<PageLoader />}>
      <Outlet />
    </Suspense>
  );
}

export function PageLoader() {
  return (
    <Center h="60vh" role="status" aria-label="Loading">
      <Loader />
    </Center>
  );
}
