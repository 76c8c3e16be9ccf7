import { join } from 'node:path';

import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The layout rules of the README ("Layout") are ESLint rules (eslint.config.js), and `npm run lint`
// checks the tree with them. These tests show each rule firing on a sample it must refuse, and
// staying quiet on one it must allow, so a config change cannot switch a rule off unnoticed.
const root = join(__dirname, '..', '..');
let eslint: ESLint;

beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The rule ids and messages ESLint reports for `code` as if it were the file `path`. */
async function problems(path: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath: join(root, path) });
  return result.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('source layout (eslint.config.js)', () => {
  it('features never import another feature, only themselves', async () => {
    const other = await problems('src/features/home/components/probe.tsx', "export { insightKeys } from '@/features/insights/api/keys';\n");
    expect(other).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*Features never import another feature/)]);
    const own = await problems('src/features/insights/components/probe.tsx', "export { insightKeys } from '@/features/insights/api/keys';\n");
    expect(own).toEqual([]);
    // Tests too.
    const test = await problems('src/features/home/components/probe.test.tsx', "export { insightKeys } from '@/features/insights/api/keys';\n");
    expect(test).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*Features never import another feature/)]);
  });

  it('features, components and lib never import the app layer (tests may)', async () => {
    const code = "export { AppProvider } from '@/app/provider';\n";
    for (const path of ['src/features/home/components/probe.tsx', 'src/components/ui/probe.tsx', 'src/lib/probe.ts']) {
      expect(await problems(path, code)).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*The app layer imports features/)]);
    }
    expect(await problems('src/features/home/components/probe.test.tsx', code)).toEqual([]);
    expect(await problems('src/testing/probe.tsx', code)).toEqual([]);
  });

  it('components and lib never import a feature; the app layer does', async () => {
    const code = "export { insightKeys } from '@/features/insights/api/keys';\n";
    for (const path of ['src/components/ui/probe.tsx', 'src/lib/probe.ts', 'src/config/probe.ts']) {
      expect(await problems(path, code)).toEqual([expect.stringMatching(/^import\/no-restricted-paths: .*Shared code .* never imports a feature/)]);
    }
    expect(await problems('src/app/routes/probe.tsx', code)).toEqual([]);
  });

  it('has no barrel index files', async () => {
    expect(await problems('src/features/home/index.ts', 'export const x = 1;\n')).toEqual([
      'no-restricted-syntax: No barrel index files: import each module from its own file.',
    ]);
  });

  it('builds route hrefs only in config/paths.ts', async () => {
    const code = [
      "import { Link, useNavigate } from 'react-router';",
      'export function Probe({ id }: { id: string }) {',
      '  const navigate = useNavigate();',
      '  return (',
      '    <>',
      '      <Link to="/insights">a</Link>',
      "      <Link to={'/datasets'}>b</Link>",
      '      <Link to={`/app/${id}`}>c</Link>',
      "      <a href={`/v1/datasets/download/${id}`}>api</a>",
      "      <button type=\"button\" onClick={() => navigate('/profile')}>d</button>",
      '    </>',
      '  );',
      '}',
      '',
    ].join('\n');
    const route = 'no-restricted-syntax: Route paths come only from config/paths.ts (paths.x.getHref()).';
    expect(await problems('src/features/home/components/probe.tsx', code)).toEqual([route, route, route, route]);
    expect(await problems('src/config/paths.ts', "export const home = { getHref: () => '/home' };\n")).toEqual([]);
  });

  it('never fakes a clock that also follows real time (outcomes would depend on the speed of the machine)', async () => {
    const code = "import { vi } from 'vitest';\nvi.useFakeTimers({ shouldAdvanceTime: true });\n";
    expect(await problems('src/features/home/components/probe.test.tsx', code)).toEqual([
      expect.stringMatching(/^no-restricted-syntax: A fake clock that also follows real time/),
    ]);
    expect(await problems('src/testing/probe.ts', code.replace('true', 'false'))).toEqual([]);
  });

  it('checks accessibility and the rules of hooks', async () => {
    const code = [
      "import { useState } from 'react';",
      'export function Probe({ on }: { on: boolean }) {',
      '  if (on) useState(0);',
      '  return <img src="/x.png" />;',
      '}',
      '',
    ].join('\n');
    const found = await problems('src/components/ui/probe.tsx', code);
    expect(found.map((m) => m.split(':')[0]).sort()).toEqual(['jsx-a11y/alt-text', 'react-hooks/rules-of-hooks']);
  });
});
