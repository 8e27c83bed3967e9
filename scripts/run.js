// `node scripts/run.js [dist entry] [args]`: builds only when a source is newer than the last build, then runs the entry in this process.
//
// Plain JavaScript: it runs before anything is compiled. `npm start` and the CLIs go through
// it, so a restart with a current build costs no build (tsc alone is 3.5–4 s here); `npm
// install` builds through it when stale (the prepare script, no entry), and `npm run build`
// builds through it always (`--build`), so either leaves a build the next start takes as it is.

import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/**
 * Written after every build of this script that passed: its time is when that build
 * started. (tsc's own .tsbuildinfo is written after a failed build too, so it cannot say
 * "current".)
 */
const STAMP = join(ROOT, 'dist', '.build-stamp');
/** The sources the last build read, one path a line (written with the stamp): a start stats them, walking no folder. */
const SOURCES = join(ROOT, 'dist', '.build-sources');

const mtime = (path) => (existsSync(path) ? statSync(path).mtimeMs : -Infinity);

/** Sources built after tsc: the TypeScript client (its generated types aside). */
const CLIENT_SOURCES = ['clients/typescript/src'];
/**
 * What the build itself writes among the sources (build-clients: the client's types from the
 * OpenAPI and AsyncAPI documents): written after the stamp's time, they would make every start build again.
 */
const GENERATED = new Set(['clients/typescript/src/schema.ts', 'clients/typescript/src/stream-schema.ts']);

/**
 * The steps after tsc: the response serialisers as standalone code (a start then never loads
 * their compiler), the OpenAPI document and the TypeScript client, then the server's bundle
 * (dist/main.bundle.js, the file `npm start` runs). A step whose script is absent is skipped.
 */
const AFTER_TSC = [
  join(ROOT, 'dist', 'transport', 'build', 'write-compiled.js'),
  join(ROOT, 'dist', 'transport', 'build', 'build-clients.js'),
  join(ROOT, 'scripts', 'bundle.js'),
];

/** The files the build reads, found by walking: both tsconfig.json, the TypeScript sources (tsconfig's include, the client's). */
function sources() {
  const tsconfig = join(ROOT, 'tsconfig.json');
  const { include } = JSON.parse(readFileSync(tsconfig, 'utf8'));
  const found = [tsconfig, join(ROOT, 'clients/typescript/tsconfig.json')].filter((path) => existsSync(path));
  const walk = (path) => {
    const s = statSync(path, { throwIfNoEntry: false });
    if (s === undefined) return;
    if (s.isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules' && name !== 'dist') walk(join(path, name));
    } else if (path.endsWith('.ts') && !GENERATED.has(relative(ROOT, path))) found.push(path);
  };
  for (const entry of [...include, ...CLIENT_SOURCES]) walk(join(ROOT, entry));
  return found;
}

/**
 * Whether a source is newer than `built`. Before an entry runs, the sources the last build read are
 * checked (a stat each, no walk; one gone since counts as changed): a file added since is in no entry
 * unless a listed source imports it, which then changed too. Without an entry (only building), or
 * without the list, each source a walk finds.
 */
function changedSince(built, entry) {
  const listed =
    entry !== undefined && existsSync(SOURCES) ? readFileSync(SOURCES, 'utf8').split('\n').filter(Boolean) : null;
  for (const path of listed ?? sources()) {
    const s = statSync(path, { throwIfNoEntry: false });
    if (s === undefined ? listed !== null : s.mtimeMs > built) return true;
  }
  return false;
}

/** Why a build is needed before running `entry` (none given: only building), or null when the last build is current. */
function staleness(entry) {
  const built = mtime(STAMP);
  if (built === -Infinity) return 'first build';
  if (entry !== undefined && !existsSync(entry)) return `${entry} does not exist yet`;
  return changedSince(built, entry) ? 'sources changed since the last build' : null;
}

/** tsc, then the steps after it; exits with the failing step's code. The stamp is dated when the build started. */
async function build() {
  let tsc;
  try {
    tsc = createRequire(join(ROOT, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    process.stderr.write('building: typescript is not installed; run npm install\n');
    process.exit(1);
  }
  const { spawnSync } = await import('node:child_process'); // only a build loads it
  const started = new Date();
  const read = sources(); // before tsc: a source added during the build is not in the list (nor, maybe, in the build)
  for (const [script, args] of [[tsc, ['-p', ROOT]], ...AFTER_TSC.map((step) => [step, []])]) {
    if (!existsSync(script)) continue;
    const done = spawnSync(process.execPath, [script, ...args], { stdio: 'inherit' });
    if (done.status !== 0) process.exit(done.status ?? 1);
  }
  writeFileSync(SOURCES, `${read.join('\n')}\n`);
  closeSync(openSync(STAMP, 'a'));
  utimesSync(STAMP, started, started); // a source saved during the build is newer than the stamp: the next run builds again
}

const [target, ...args] = process.argv.slice(2);
if (target === '--build') await build();
else {
  const entry = target === undefined ? undefined : resolve(ROOT, target);
  const why = staleness(entry);
  if (why !== null) {
    process.stderr.write(`building: ${why} (tsc -p .)\n`);
    await build();
  }
  if (entry !== undefined) {
    process.argv = [process.argv[0], entry, ...args]; // the entry reads its own arguments, as if started directly
    await import(pathToFileURL(entry).href);
  }
}
