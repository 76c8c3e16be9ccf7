import { ApiError } from '@/lib/api-client';

/**
 * Which form field a server refusal is about, by its `code` (the API's error bodies carry a code,
 * not a field). A form lists the codes it knows; the toast still says it, and the field is marked.
 */
export type FieldCodes<F extends string> = Partial<Record<string, F | readonly F[]>>;

/** The fields `error` names under `codes`, each with the server's message; empty when none. */
export function fieldErrors<F extends string>(error: unknown, codes: FieldCodes<F>): Partial<Record<F, string>> {
  if (!(error instanceof ApiError) || !error.code) return {};
  const fields = codes[error.code];
  if (!fields) return {};
  const list: readonly F[] = typeof fields === 'string' ? [fields as F] : (fields as readonly F[]);
  return Object.fromEntries(list.map((f) => [f, error.message])) as Partial<Record<F, string>>;
}
