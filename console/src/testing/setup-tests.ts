import '@testing-library/jest-dom/vitest';
import { notifications } from '@mantine/notifications';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';

import { reloadSession } from '@/lib/auth';

// Two shared cores: give async queries room.
configure({ asyncUtilTimeout: 4000 });

// React's act() checks this flag.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// Without vitest globals, Testing Library cannot register its own cleanup.
afterEach(() => {
  // A test that faked the clock (testing/clock.ts) never leaves it to the next one.
  vi.useRealTimers();
  cleanup();
  // Mantine's toast store is module-wide: empty it between tests.
  notifications.clean();
  notifications.cleanQueue();
  vi.unstubAllGlobals();
});

// The lazy screens most tests land on (the signed-in layout and Home, which reaches into the
// insights, datasets and projects features) are loaded before any test starts waiting, so the
// first test of a file does not spend its wait compiling them on a busy machine.
beforeAll(async () => {
  await Promise.all([import('@/app/routes/app-layout'), import('@/app/routes/home')]);
}, 60_000);

beforeEach(() => {
  window.localStorage.clear();
  reloadSession();
});

// Mantine reads these; happy-dom may lack them.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => undefined,
      removeListener: () => undefined,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}

// Mantine's autosize textarea listens on document.fonts, which happy-dom lacks.
if (!('fonts' in document) || !document.fonts) {
  Object.defineProperty(document, 'fonts', {
    value: { addEventListener: () => undefined, removeEventListener: () => undefined, ready: Promise.resolve() },
  });
}
