// What the build generates for the clients is never in git: no file git tracks under clients/ is
// generated output (a stale copy would be picked up by a build that did not generate, and ship old
// types), and every path the build writes there is ignored; nor is it a source `npm start` checks
// (written during the build, it would make every start build again).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { REPO } from '../helpers/readme-blocks.js';

const ROOT = fileURLToPath(REPO);
/** What transport/build-clients.ts writes, and what `tsc` compiles the TypeScript client to. */
const GENERATED = [
  'clients/typescript/src/schema.ts',
  'clients/typescript/src/schema.d.ts',
  'clients/typescript/src/stream-schema.ts',
  'clients/typescript/dist/index.js',
  'clients/typescript/dist/schema.d.ts',
];
/** The line the generator opens its files with (clients/typescript/scripts/generate.js): "…: do not edit." */
const MARK = /^\/\/ Generated .*do not edit/i;

/** `git …` in the checkout; null (the test skipped, failed under CI) where this is no git checkout. */
function git(t: { skip(reason: string): void }, args: string[]): string | null {
  const r = spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
  if (r.status === 0 || (args[0] === 'check-ignore' && r.status === 1)) return r.stdout;
  const reason = `git ${args[0]}: ${r.error?.message ?? r.stderr.trim()}`;
  if (process.env.CI === 'true') assert.fail(`${reason}; CI runs in a git clone`);
  t.skip(reason);
  return null;
}

test('no file git tracks under clients/ is generated output', (t) => {
  const tracked = git(t, ['ls-files', '-z', 'clients']);
  if (tracked === null) return;
  const files = tracked.split('\0').filter((f) => f !== '');
  assert.ok(files.includes('clients/typescript/src/index.ts'), 'the clients are listed');
  const generated = files.filter(
    (f) =>
      GENERATED.includes(f) || f.includes('/dist/') || MARK.test(readFileSync(`${ROOT}${f}`, 'utf8').split('\n')[0]),
  );
  assert.deepEqual(generated, [], 'generated files are made by the build, never committed');
});

test('every path the build writes under clients/ is ignored by git', (t) => {
  const ignored = git(t, ['check-ignore', '--no-index', ...GENERATED]);
  if (ignored === null) return;
  assert.deepEqual(ignored.trim().split('\n').sort(), [...GENERATED].sort());
});

test('no file the build writes is among the sources a start checks (dist/.build-sources)', () => {
  const list = `${ROOT}dist/.build-sources`;
  assert.ok(existsSync(list), 'npm run build lists the sources it read');
  const sources = readFileSync(list, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((path) => relative(ROOT, path));
  assert.ok(
    sources.includes('main.ts') && sources.includes('clients/typescript/src/index.ts'),
    'the sources are listed',
  );
  assert.deepEqual(
    sources.filter((path) => GENERATED.includes(path)),
    [],
    'a file the build writes is newer than its stamp: listed, every start would build again',
  );
});
