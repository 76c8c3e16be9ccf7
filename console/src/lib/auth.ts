import { useSyncExternalStore } from 'react';

import type { User } from '@/lib/api/types';
import { readJson, readPersistedState, readString, STORAGE_KEYS, updatePersistedState, writeJson, writeString } from '@/lib/storage';

/** The signed-in session: kept in local storage (spec 000 §4, §9), mirrored here for React. */
export type Session = {
  token: string | null;
  refreshToken: string | null;
  user: User | null;
  /** The second factor was verified in this session (or enrolment just finished). */
  verified2fa: boolean;
};

function load(): Session {
  return {
    token: readString(STORAGE_KEYS.token),
    refreshToken: readString(STORAGE_KEYS.refreshToken),
    user: readJson<User>(STORAGE_KEYS.user),
    verified2fa: readPersistedState().auth?.verified2fa === true,
  };
}

let current: Session = load();
const listeners = new Set<() => void>();

function emit() {
  for (const l of listeners) l();
}

function save(next: Session) {
  current = next;
  writeString(STORAGE_KEYS.token, next.token);
  writeString(STORAGE_KEYS.refreshToken, next.refreshToken);
  writeJson(STORAGE_KEYS.user, next.user);
  updatePersistedState({ auth: { verified2fa: next.verified2fa } });
  emit();
}

export function getSession(): Session {
  return current;
}

/** Re-read local storage (tests and other tabs). */
export function reloadSession() {
  current = load();
  emit();
}

export function setSession(patch: Partial<Session>) {
  save({ ...current, ...patch });
}

/** Logout: clears token, refresh token, user and stored state (spec 000 §4.6). */
export function clearSession() {
  current = { token: null, refreshToken: null, user: null, verified2fa: false };
  writeString(STORAGE_KEYS.token, null);
  writeString(STORAGE_KEYS.refreshToken, null);
  writeString(STORAGE_KEYS.user, null);
  writeString(STORAGE_KEYS.state, null);
  emit();
}

export function subscribeSession(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

export function useSession(): Session {
  return useSyncExternalStore(subscribeSession, getSession, getSession);
}

/** What the sign-in still waits for. */
export type TwoFactorStage = 'none' | 'verify' | 'enable';

export function twoFactorStage(session: Session): TwoFactorStage {
  const user = session.user;
  if (!session.token || !user || session.verified2fa) return 'none';
  // Enabled and enrolled: a code is needed on every sign-in.
  if (user.enabled_2fa && user.confirmed_2fa !== false) return 'verify';
  // The organization requires it (or enrolment was left unfinished): enrol first.
  if (user.is_2fa_required || user.enabled_2fa) return 'enable';
  return 'none';
}

export function isAdmin(user: User | null | undefined): boolean {
  return user?.role === 'administrator' || user?.role === 'superadmin';
}

export function isSuperadmin(user: User | null | undefined): boolean {
  return user?.role === 'superadmin';
}

export function displayName(user: User | null | undefined): string {
  if (!user) return '';
  return [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;
}

/**
 * When an access token (a JWT) expires, in milliseconds since the epoch, read from its `exp`
 * claim; null when the token is not a JWT with one. Only for deciding when to refresh: the API
 * alone checks the signature.
 */
export function tokenExpiresAt(token: string): number | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const json = atob(payload.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(payload.length / 4) * 4, '='));
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}
