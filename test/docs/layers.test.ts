// The layering the READMEs state, held by the imports themselves: the engine reads no file and
// speaks no HTTP, transport knows nothing of LMDB or the loaders, routes never reach a kernel, the
// K-line query is the one caller of the K-line kernels, the renderers never import a cache, the
// build steps and the composition are imported by no server module but the roots.
// Read from the TypeScript sources (static `from '…'` and dynamic `import('…')`), not from dist/.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { importing, importsOf, packagesOf, sources } from '../helpers/source-tree.js';

test('the import reader finds static and dynamic imports, resolved from the root, and leaves type imports out', () => {
  const routeImports = importsOf('transport/routes/klines.ts');
  assert.ok(
    routeImports.includes('engine/queries/klines'),
    `transport/routes/klines.ts imports the K-line query: ${routeImports}`,
  );
  assert.ok(importsOf('main.ts').includes('loaders/edition/editions'), 'main.ts imports the editions (dynamically)');
  assert.ok(
    !importsOf('transport/route.ts').includes('transport/caches/caches'),
    'route.ts names the caches as a type only',
  );
});

test('no module in transport/routes/ imports engine/kernels/: routes ask queries', () => {
  assert.deepEqual(importing(['transport/routes'], /^engine\/kernels\//), []);
});

test('engine/queries/klines.ts is the one caller of the K-line kernels (window, adjustment, period bars) in engine/ and transport/', () => {
  const callers = importing(['engine', 'transport'], /^engine\/kernels\/(kline-window|adjust|periods)$/).filter(
    (line) => !line.startsWith('engine/kernels/') && !line.startsWith('engine/queries/klines.ts '),
  );
  assert.deepEqual(callers, []);
});

test('the renderers (transport/serialise/) import no cache, and the caches no route, shape or request lifecycle', () => {
  assert.deepEqual(importing(['transport/serialise'], /^transport\/caches\//), []);
  assert.deepEqual(importing(['transport/caches'], /^transport\/(routes|shapes|lifecycle|http)\//), []);
});

/** The packages of `folders`' files matching `target`, with the files. */
const usingPackages = (folders: string[], target: RegExp): string[] =>
  folders.flatMap(sources).flatMap((file) =>
    packagesOf(file)
      .filter((p) => target.test(p))
      .map((p) => `${file} → ${p}`),
  );

test('the package reader finds built-ins and packages, and leaves type imports out', () => {
  assert.ok(packagesOf('transport/server.ts').includes('uWebSockets.js'), 'server.ts imports uWebSockets.js');
  assert.ok(packagesOf('loaders/state/state-store.ts').includes('lmdb'), 'the state store imports lmdb');
  assert.ok(!packagesOf('transport/respond.ts').includes('uWebSockets.js'), 'respond.ts names uWS types only');
});

test('engine/ reads no file, opens no LMDB, speaks no HTTP, and imports no other layer (engine/README.md)', () => {
  assert.deepEqual(
    usingPackages(['engine'], /^(node:)?(fs|fs\/promises|http|https|net|child_process)$|^lmdb$|^uWebSockets/),
    [],
  );
  assert.deepEqual(importing(['engine'], /^(loaders|transport|compose)\//), []);
});

test('transport/ knows nothing of LMDB or the loaders (transport/README.md)', () => {
  assert.deepEqual(usingPackages(['transport'], /^lmdb$/), []);
  assert.deepEqual(importing(['transport'], /^(loaders|compose)\//), []);
});

test('the build steps are never imported by the server (transport/build/README.md)', () => {
  assert.deepEqual(
    importing(
      ['engine', 'loaders', 'transport', 'compose', 'main.ts', 'serving-thread.ts'],
      /^transport\/build\//,
    ).filter((line) => !line.startsWith('transport/build/')),
    [],
  );
});

test('compose/ is imported by the two composition roots alone (compose/README.md)', () => {
  assert.deepEqual(importing(['engine', 'loaders', 'transport'], /^compose\//), []);
  assert.ok(importing(['main.ts'], /^compose\//).length > 0, 'main.ts composes from compose/');
  assert.ok(importing(['serving-thread.ts'], /^compose\//).length > 0, 'serving-thread.ts composes from compose/');
});
