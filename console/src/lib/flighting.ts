import type { FeatureKey, Flighting, Role } from '@/lib/api/types';

/**
 * Whether a role may use a feature, mirroring the API's flighting rule (api policy::flags::allowed):
 * a superadmin always may; otherwise the flag must be active and list the role (spec 000 §6). A
 * feature without a flag is not restricted. Until the flags are loaded nothing is shown.
 */
export function isFeatureEnabled(flightings: readonly Flighting[] | undefined, key: FeatureKey, role: Role | undefined) {
  if (!flightings || !role) return false;
  if (role === 'superadmin') return true;
  const flag = flightings.find((f) => f.key === key);
  if (!flag) return true;
  return flag.active && flag.user_roles.includes(role);
}

/**
 * The home page hides pinned insights only when the insights flag exists and excludes the
 * user's role (spec 000 §2): a missing flag leaves them shown.
 */
export function isPinnedAreaVisible(flightings: readonly Flighting[] | undefined, role: Role | undefined) {
  if (role === 'superadmin') return true;
  const flag = flightings?.find((f) => f.key === 'insights');
  if (!flag) return true;
  return !!role && flag.active && flag.user_roles.includes(role);
}
