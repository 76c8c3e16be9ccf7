import { paths, PUBLIC_PATHS, TWO_FACTOR_PATHS } from '@/config/paths';
import { type Session, twoFactorStage } from '@/lib/auth';

/**
 * The route guard of spec 000 §2 / 001 §2, as a pure function: where to send the browser
 * instead of `pathname`, or null to stay.
 * - Without a token only the login-type (public) routes are reachable.
 * - 2FA enabled but not verified: the verify page; the organization requires 2FA but the user
 *   has not enabled it: the enable page.
 * - Signed in (2FA verified or not needed): login-type routes redirect home.
 */
export function guardRedirect(pathname: string, session: Session): string | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const isPublic = PUBLIC_PATHS.includes(path);
  if (!session.token) return isPublic ? null : paths.login.getHref();

  const stage = twoFactorStage(session);
  if (stage === 'verify') return path === paths.twoFactorVerify.path ? null : paths.twoFactorVerify.getHref();
  if (stage === 'enable') return path === paths.twoFactorEnable.path ? null : paths.twoFactorEnable.getHref();

  if (isPublic || TWO_FACTOR_PATHS.includes(path)) return paths.root.getHref();
  return null;
}
