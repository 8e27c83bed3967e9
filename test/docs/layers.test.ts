// The layering the READMEs state, held by the imports themselves: routes never reach a kernel, the
// K-line query is the one caller of the K-line kernels, and the renderers never import a cache.
// Read from the TypeScript sources (static `from '…'` and dynamic `import('…')`), not from dist/.

import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

/** The checkout: this file runs as dist/test/docs/layers.test.js. */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every .ts file under `folder` (relative to the root, `/`-separated). */
function sources(folder: string): string[] {
  const out: string[] = [];
  for (const d of readdirSync(join(ROOT, folder), { withFileTypes: true })) {
    const path = `${folder}/${d.name}`;
    if (d.isDirectory()) out.push(...sources(path));
    else if (d.name.endsWith('.ts')) out.push(path);
  }
  return out;
}

/**
 * The modules `file` imports at run time that are the project's own, as paths from the root
 * without extension (`engine/kernels/adjust`): `import type` and `export type` name types only.
 */
export function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^(import|export) type [^;]*;/gms, '');
  const found: string[] = [];
  for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.{1,2}\/[^']+)'/gm)) {
    const resolved = relative(ROOT, join(ROOT, dirname(file), m[1]))
      .split('\\')
      .join('/');
    found.push(resolved.replace(/\.js$/, ''));
  }
  return found;
}

/** The files of `folders` that import a module matching `target`, with the modules. */
function importing(folders: string[], target: RegExp): string[] {
  return folders.flatMap(sources).flatMap((file) =>
    importsOf(file)
      .filter((m) => target.test(m))
      .map((m) => `${file} → ${m}`),
  );
}

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
