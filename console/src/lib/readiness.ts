/** The API's `/readyz` answer: whether it is ready and what each dependency said. */
export type Readiness = { ready: boolean; checks: Record<string, string> };

export async function fetchReadiness(signal?: AbortSignal): Promise<Readiness> {
  const res = await fetch('/readyz', { signal, headers: { Accept: 'application/json' } });
  if (res.status !== 200 && res.status !== 503) throw new Error(`HTTP ${res.status}`);
  return (await res.json()) as Readiness;
}
