// scripts/run.js (npm start and the CLIs): compiles and bundles only when a source is newer than the build, then runs the entry with its arguments.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'mdq-run-'));
const source = join(root, 'src', 'hello.ts');
const lazy = join(root, 'src', 'lazy.ts');

/**
 * A small project laid out like this one: scripts/run.js and scripts/bundle.js, tsconfig.json (include,
 * dist/.tsbuildinfo), node_modules (the build's packages, and `marker`: a CommonJS package that tells
 * when it loads), an entry `main.ts` (bundled into dist/main.bundle.js) that imports src/lazy.ts, which
 * imports `marker`, only when it runs.
 */
before(() => {
  mkdirSync(join(root, 'scripts'));
  mkdirSync(join(root, 'src'));
  for (const script of ['run.js', 'bundle.js'])
    copyFileSync(join(REPO, 'scripts', script), join(root, 'scripts', script));
  const marker = join(root, 'node_modules', 'marker');
  mkdirSync(marker, { recursive: true });
  for (const name of ['typescript', 'esbuild', '@esbuild', '@types'])
    symlinkSync(join(REPO, 'node_modules', name), join(root, 'node_modules', name));
  writeFileSync(join(marker, 'package.json'), JSON.stringify({ name: 'marker', main: 'index.js' }));
  writeFileSync(join(marker, 'index.js'), 'globalThis.markerLoaded = true;\nexports.kind = "commonjs";\n');
  writeFileSync(join(marker, 'index.d.ts'), 'export declare const kind: string;\n');
  writeFileSync(join(root, 'package.json'), JSON.stringify({ type: 'module' }));
  const compilerOptions = {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    outDir: 'dist',
    rootDir: '.',
    strict: true,
    types: ['node'],
    incremental: true,
    tsBuildInfoFile: 'dist/.tsbuildinfo',
  };
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['main.ts', 'src'] }));
  writeFileSync(
    join(root, 'main.ts'),
    [
      'const loaded = (): boolean => (globalThis as { markerLoaded?: boolean }).markerLoaded === true;',
      'const before = loaded();',
      "const { here, version } = await import('./src/lazy.js');",
      'console.log(JSON.stringify({ args: process.argv.slice(2), main: import.meta.url, here, version, before, after: loaded() }));',
      '',
    ].join('\n'),
  );
  writeLazy('v1');
  writeHello('v1');
});
after(() => rmSync(root, { recursive: true, force: true }));

/** Writes the source (dated now: after any earlier build started). */
function writeHello(version: string): void {
  writeFileSync(
    source,
    `const version: string = '${version}';\nconsole.log(JSON.stringify(process.argv.slice(2)), version);\n`,
  );
}

/** The module main.ts imports when it runs: its own URL, and a version with what it imported from `marker`. */
function writeLazy(version: string): void {
  writeFileSync(
    lazy,
    `import { kind } from 'marker';\nexport const here = import.meta.url;\nexport const version = '${version}:' + kind;\n`,
  );
}

function run(...args: string[]): { code: number | null; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'run.js'), ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

test('the first run builds, then runs the entry with its own arguments', () => {
  const r = run('dist/src/hello.js', 'a', '--port', '1');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^building: /, 'says it builds');
  assert.equal(r.stdout, '["a","--port","1"] v1\n');
});

test('with a current build it runs without compiling', () => {
  const r = run('dist/src/hello.js', '--help');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '', 'no build');
  assert.equal(r.stdout, '["--help"] v1\n');
});

test('a source newer than the build is compiled before the run', () => {
  writeHello('v2');
  const r = run('dist/src/hello.js');
  assert.match(r.stderr, /^building: sources changed/);
  assert.equal(r.stdout, '[] v2\n');
  assert.equal(run('dist/src/hello.js').stderr, '', 'and the next run does not compile again');
});

test("without an entry it only builds when stale (npm install's prepare)", () => {
  const r = run();
  assert.equal(r.code, 0);
  assert.equal(r.stderr + r.stdout, '');
});

test('the build bundles main.ts: each module keeps its own import.meta.url, and a CommonJS package loads where it is imported', () => {
  const r = run('dist/main.bundle.js', 'a', '--port', '1');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '', 'bundled by the build before: no build now');
  const dist = join(realpathSync(root), 'dist');
  assert.deepEqual(JSON.parse(r.stdout), {
    args: ['a', '--port', '1'],
    main: pathToFileURL(join(dist, 'main.js')).href,
    here: pathToFileURL(join(dist, 'src', 'lazy.js')).href,
    version: 'v1:commonjs',
    before: false,
    after: true,
  });
  const text = readFileSync(join(dist, 'main.bundle.js'), 'utf8');
  assert.match(text, /["']v1:["']/, "lazy.ts's code is in the bundle");
  assert.doesNotMatch(text, /markerLoaded = true/, "the package's is not: it is required from node_modules");
});

test('a source the bundle holds, newer than the build, is compiled and bundled again before the run', () => {
  writeLazy('v2');
  const r = run('dist/main.bundle.js');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^building: sources changed/);
  assert.equal(JSON.parse(r.stdout).version, 'v2:commonjs');
  assert.equal(run('dist/main.bundle.js').stderr, '', 'and the next run does not build again');
});

test('a missing bundle is built before the run', () => {
  rmSync(join(root, 'dist', 'main.bundle.js'));
  const r = run('dist/main.bundle.js');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /^building: .*main\.bundle\.js does not exist yet/);
  assert.equal(JSON.parse(r.stdout).version, 'v2:commonjs');
});

test('an entry checks the sources the last build read: one added since builds nothing, one of them deleted builds', () => {
  const extra = join(root, 'src', 'extra.ts');
  writeFileSync(extra, 'export const extra = 1;\n');
  assert.equal(run('dist/main.bundle.js').stderr, '', 'not read by the last build: no entry can use it');
  assert.match(run().stderr, /^building: sources changed/, 'only building (prepare) walks the folders and finds it');
  rmSync(extra);
  const r = run('dist/main.bundle.js');
  assert.match(r.stderr, /^building: sources changed/, 'read by the last build, gone now');
  assert.equal(JSON.parse(r.stdout).version, 'v2:commonjs');
  assert.equal(run('dist/main.bundle.js').stderr, '', 'and the next run does not build again');
});

test('--build (npm run build) builds, stamp or not, and dates the stamp: the next run builds nothing', () => {
  writeLazy('v3');
  const r = run('--build');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr + r.stdout, '', 'asked for: no reason told');
  const next = run('dist/main.bundle.js');
  assert.equal(next.stderr, '', 'no build');
  assert.equal(JSON.parse(next.stdout).version, 'v3:commonjs', 'the build made the bundle');
});

test('a build that fails stops the run with a failing exit code', () => {
  writeFileSync(source, "const version: number = 'not a number';\nconsole.log(version);\n");
  const r = run('dist/src/hello.js');
  assert.notEqual(r.code, 0);
  assert.match(r.stdout, /error TS2322/, "tsc's diagnostics are shown");
  assert.doesNotMatch(r.stdout, /\[\]/, 'the entry did not run');
  assert.match(
    run('dist/src/hello.js').stderr,
    /^building: /,
    'a failed build is not current: the next run builds again',
  );
});
