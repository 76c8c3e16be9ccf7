import type { ReactNode } from 'react';
import { Navigate, Outlet } from 'react-router';

import { paths } from '@/config/paths';
import { isAdmin, isSuperadmin, useSession } from '@/lib/auth';

/**
 * Administration screens are for administrators and superadmins (spec 000 §6); others go home.
 * The router puts it above the admin routes, so nothing of theirs renders, and no admin-only
 * request leaves, before the role is checked.
 */
export function RequireAdmin({ children, superadmin = false }: { children?: ReactNode; superadmin?: boolean }) {
  const { user } = useSession();
  const allowed = superadmin ? isSuperadmin(user) : isAdmin(user);
  if (!allowed) return <Navigate to={paths.root.getHref()} replace />;
  return children ?? <Outlet />;
}
