#!/usr/bin/env node
// Prints the gzipped size of the console's initial JavaScript (the entry chunk and every chunk
// it imports statically, from dist/.vite/manifest.json) against the budget; exits 1 over budget.
// Run after `npm run build`.
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_KB = 215;
const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

let manifest;
try {
  manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
} catch {
  console.error('dist/.vite/manifest.json not found: run `npm run build` first.');
  process.exit(2);
}

const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry);
if (entries.length === 0) {
  console.error('no entry chunk in the manifest');
  process.exit(2);
}

const seen = new Set();
function walk(key) {
  if (seen.has(key)) return;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) walk(dep);
}
for (const [key] of entries) walk(key);

const rows = [...seen]
  .map((key) => manifest[key].file)
  .filter((file) => file.endsWith('.js'))
  .map((file) => {
    const bytes = readFileSync(join(dist, file));
    return { file, raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length };
  })
  .sort((a, b) => b.gzip - a.gzip);

const kb = (n) => (n / 1024).toFixed(1);
for (const r of rows) console.log(`${kb(r.gzip).padStart(8)} KB gzip  ${kb(r.raw).padStart(8)} KB raw  ${r.file}`);
const total = rows.reduce((n, r) => n + r.gzip, 0);
const lazy = Object.values(manifest).filter((c) => c.file.endsWith('.js') && !rows.some((r) => r.file === c.file)).length;
console.log(`initial JS: ${kb(total)} KB gzipped in ${rows.length} file(s) (budget ${BUDGET_KB} KB); ${lazy} lazy chunk(s)`);
if (total > BUDGET_KB * 1024) {
  console.error(`over budget by ${kb(total - BUDGET_KB * 1024)} KB`);
  process.exit(1);
}
