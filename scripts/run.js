// `node scripts/run.js [dist entry] [args]`: compiles only when a source is newer than the last build, then runs the entry in this process.
//
// Plain JavaScript: it runs before anything is compiled. `npm start` and the CLIs go through
// it, so a restart with a current build costs no tsc run (3.5–4 s here); `npm install`
// builds through it too (the prepare script, no entry).

import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync, readdirSync, readFileSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Written after every build of this script that passed: its time is when that build
 * started. (tsc's own .tsbuildinfo is written after a failed build too, so it cannot say
 * "current".)
 */
const STAMP = join(ROOT, 'dist', '.build-stamp');

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : -Infinity);

/** Sources built after tsc: the TypeScript client (its generated types aside). */
const CLIENT_SOURCES = ['clients/typescript/src'];
const GENERATED = new Set(['schema.ts']);

/** Newest modification time of the TypeScript sources the build reads (tsconfig's include, the client's) and of tsconfig.json. */
function newestSource() {
  const tsconfig = join(ROOT, 'tsconfig.json');
  const { include } = JSON.parse(readFileSync(tsconfig, 'utf8'));
  let newest = Math.max(mtime(tsconfig), mtime(join(ROOT, 'clients/typescript/tsconfig.json')));
  const walk = (path) => {
    const s = statSync(path, { throwIfNoEntry: false });
    if (s === undefined) return;
    if (s.isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules' && name !== 'dist') walk(join(path, name));
    } else if (path.endsWith('.ts') && !GENERATED.has(basename(path)) && s.mtimeMs > newest) newest = s.mtimeMs;
  };
  for (const entry of [...include, ...CLIENT_SOURCES]) walk(join(ROOT, entry));
  return newest;
}

/** Runs tsc when the build is missing or older than a source; exits with tsc's code if it fails. */
function buildIfStale(entry) {
  const built = mtime(STAMP);
  if (built === -Infinity) process.stderr.write('building: first build (tsc -p .)\n');
  else if (entry !== undefined && !existsSync(entry))
    process.stderr.write(`building: ${entry} does not exist yet (tsc -p .)\n`);
  else if (newestSource() <= built) return;
  else process.stderr.write('building: sources changed since the last build (tsc -p .)\n');
  let tsc;
  try {
    tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    process.stderr.write('building: typescript is not installed; run npm install\n');
    process.exit(1);
  }
  const started = new Date();
  const result = spawnSync(process.execPath, [tsc, '-p', ROOT], { stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
  // The steps after tsc, as `npm run build` runs them: the response serialisers as standalone code
  // (a start then never loads their compiler), then the OpenAPI document and the TypeScript client.
  for (const step of [
    ['build', 'write-compiled.js'],
    ['build', 'build-clients.js'],
  ]) {
    const script = join(ROOT, 'dist', 'transport', ...step);
    if (!existsSync(script)) continue;
    const done = spawnSync(process.execPath, [script], { stdio: 'inherit' });
    if (done.status !== 0) process.exit(done.status ?? 1);
  }
  closeSync(openSync(STAMP, 'a'));
  utimesSync(STAMP, started, started); // a source saved during the build is newer than the stamp: the next run builds again
}

const [target, ...args] = process.argv.slice(2);
const entry = target === undefined ? undefined : resolve(ROOT, target);
buildIfStale(entry);
if (entry !== undefined) {
  process.argv = [process.argv[0], entry, ...args]; // the entry reads its own arguments, as if started directly
  await import(pathToFileURL(entry).href);
}
