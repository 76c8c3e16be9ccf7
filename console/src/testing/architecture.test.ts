import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

// The layout rules of STYLE.md §1.16 / §3.4, checked over the source tree (a cheap stand-in for
// ESLint's import/no-restricted-paths): no cross-feature imports, features and shared code do not
// import the app layer, no barrel index files, no route strings outside config/paths.ts.
const src = join(__dirname, '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.(ts|tsx)$/.test(name) ? [p] : [];
  });
}

const sources = files(src)
  .filter((f) => !f.endsWith('.d.ts'))
  .map((f) => ({ path: relative(src, f).split(sep).join('/'), text: readFileSync(f, 'utf8') }));

function imports(text: string): string[] {
  return [...text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((m) => m[1]);
}

describe('source layout', () => {
  it('has the files it checks', () => {
    expect(sources.some((s) => s.path.startsWith('features/auth/'))).toBe(true);
  });

  it('features never import another feature', () => {
    const offences = sources.flatMap(({ path, text }) => {
      const own = /^features\/([^/]+)\//.exec(path)?.[1];
      if (!own) return [];
      return imports(text)
        .filter((i) => i.startsWith('@/features/') && !i.startsWith(`@/features/${own}/`))
        .map((i) => `${path} → ${i}`);
    });
    expect(offences).toEqual([]);
  });

  it('features, components and lib never import the app layer; components and lib never import features', () => {
    const offences = sources.flatMap(({ path, text }) => {
      if (path === 'main.tsx' || path.startsWith('app/') || path.startsWith('testing/') || path.endsWith('.test.ts') || path.endsWith('.test.tsx')) return [];
      return imports(text)
        .filter((i) => i.startsWith('@/app/') || (!path.startsWith('features/') && i.startsWith('@/features/')))
        .map((i) => `${path} → ${i}`);
    });
    expect(offences).toEqual([]);
  });

  it('never fakes a clock that also follows real time (outcomes would depend on the speed of the machine)', () => {
    const offences = sources.filter(({ path, text }) => path !== 'testing/architecture.test.ts' && /shouldAdvanceTime\s*:\s*true/.test(text)).map((s) => s.path);
    expect(offences).toEqual([]);
  });

  it('has no barrel index files', () => {
    expect(sources.filter((s) => /(^|\/)index\.tsx?$/.test(s.path)).map((s) => s.path)).toEqual([]);
  });

  it('builds route hrefs only in config/paths.ts', () => {
    const offences = sources.flatMap(({ path, text }) => {
      if (path === 'config/paths.ts' || path.includes('.test.') || path.startsWith('testing/')) return [];
      return [...text.matchAll(/\b(?:to|href|navigate\()\s*=?\s*\{?\s*['"`](\/(?!v1\/|v2\/|readyz|favicon)[a-z][^'"`]*)['"`]/g)].map(
        (m) => `${path}: ${m[1]}`,
      );
    });
    expect(offences).toEqual([]);
  });
});
