#!/usr/bin/env node
// Fails when src/lib/api/schema.d.ts is not what `npm run gen:api` makes from ../api/openapi.json.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const out = join(mkdtempSync(join(tmpdir(), 'ludis-api-types-')), 'schema.d.ts');
execFileSync(
  process.execPath,
  [join(root, 'node_modules/openapi-typescript/bin/cli.js'), join(root, '../api/openapi.json'), '--default-non-nullable', 'false', '-o', out],
  { stdio: 'ignore' },
);
const fresh = readFileSync(out, 'utf8');
const committed = readFileSync(join(root, 'src/lib/api/schema.d.ts'), 'utf8');
if (fresh !== committed) {
  console.error('src/lib/api/schema.d.ts is stale: run `npm run gen:api` and commit it.');
  process.exit(1);
}
console.log('src/lib/api/schema.d.ts matches ../api/openapi.json');
