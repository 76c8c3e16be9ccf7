import type { Flighting } from '@/lib/api/types';

/**
 * A section shows only when its feature flag is active and lists the user's role
 * (spec 000 §6). A missing flag hides the section.
 */
export function isFeatureEnabled(flightings: readonly Flighting[] | undefined, key: string, role: string | undefined) {
  const flag = flightings?.find((f) => f.key === key);
  return !!flag && flag.active && !!role && flag.user_roles.includes(role);
}

/**
 * The home page hides pinned insights only when the insights flag exists and excludes the
 * user's role (spec 000 §2): a missing flag leaves them shown.
 */
export function isPinnedAreaVisible(flightings: readonly Flighting[] | undefined, role: string | undefined) {
  const flag = flightings?.find((f) => f.key === 'insights');
  if (!flag) return true;
  return !!role && flag.user_roles.includes(role);
}
