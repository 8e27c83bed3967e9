// scripts/run.js (npm start and the CLIs): compiles only when a source is newer than the build, then runs the entry with its arguments.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const root = mkdtempSync(join(tmpdir(), 'mdq-run-'));
const source = join(root, 'src', 'hello.ts');

/** A one-file project laid out like this one: scripts/run.js, tsconfig.json (include, dist/.tsbuildinfo), node_modules. */
before(() => {
  mkdirSync(join(root, 'scripts'));
  mkdirSync(join(root, 'src'));
  copyFileSync(join(REPO, 'scripts', 'run.js'), join(root, 'scripts', 'run.js'));
  symlinkSync(join(REPO, 'node_modules'), join(root, 'node_modules'));
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
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions, include: ['src'] }));
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
