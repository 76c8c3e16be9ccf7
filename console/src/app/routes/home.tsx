import { useEffect, useState } from 'react';

import { fetchReadiness, type Readiness } from '@/lib/readiness';

type State = { kind: 'loading' } | { kind: 'loaded'; readiness: Readiness } | { kind: 'error'; message: string };

export function HomeRoute() {
  const [state, setState] = useState<State>({ kind: 'loading' });

  useEffect(() => {
    const controller = new AbortController();
    fetchReadiness(controller.signal)
      .then((readiness) => setState({ kind: 'loaded', readiness }))
      .catch((e: unknown) => {
        if (!controller.signal.aborted) setState({ kind: 'error', message: String(e) });
      });
    return () => controller.abort();
  }, []);

  return (
    <section>
      <h2>Welcome to Ludis</h2>
      <p>Projects, insights, workflows and datasets for your organization.</p>
      <h3>Platform status</h3>
      {state.kind === 'loading' && <p role="status">Checking the platform…</p>}
      {state.kind === 'error' && (
        <p role="alert" className="status-error">
          The API cannot be reached: {state.message}
        </p>
      )}
      {state.kind === 'loaded' && (
        <ul className="status-list" aria-label="Platform status">
          {Object.entries(state.readiness.checks).map(([name, value]) => (
            <li key={name} className={value.startsWith('error') ? 'status-error' : 'status-ok'}>
              <strong>{name}</strong>: {value}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
