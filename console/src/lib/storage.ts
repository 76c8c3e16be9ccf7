/**
 * Browser local storage, as spec 000 §9 says: the token, the refresh token and the user are kept
 * under their own keys; persisted state covers only auth and flighting (no cloud keys yet).
 */
export const STORAGE_KEYS = {
  token: 'token',
  refreshToken: 'refresh_token',
  user: 'user',
  /** Persisted state: `{ auth: {...}, flighting: [...] }`. */
  state: 'ludis_state',
} as const;

function safeStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}

export function readString(key: string): string | null {
  return safeStorage()?.getItem(key) ?? null;
}

export function writeString(key: string, value: string | null) {
  const storage = safeStorage();
  if (!storage) return;
  if (value === null) storage.removeItem(key);
  else storage.setItem(key, value);
}

export function readJson<T>(key: string): T | null {
  const raw = readString(key);
  if (raw === null) return null;
  try {
    return JSON.parse(raw) as T;
  } catch {
    return null;
  }
}

export function writeJson(key: string, value: unknown) {
  writeString(key, value === null || value === undefined ? null : JSON.stringify(value));
}

export type PersistedState = {
  auth?: { verified2fa?: boolean };
  flighting?: unknown;
};

export function readPersistedState(): PersistedState {
  return readJson<PersistedState>(STORAGE_KEYS.state) ?? {};
}

export function updatePersistedState(patch: Partial<PersistedState>) {
  writeJson(STORAGE_KEYS.state, { ...readPersistedState(), ...patch });
}
