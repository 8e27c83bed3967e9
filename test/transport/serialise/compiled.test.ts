// The build writes every response serialiser as standalone code, and a server started from the
// build never loads fast-json-stringify's compiler (0.15 s of a start). That the serialisers write what
// JSON.stringify writes is schemas.test.ts's (it runs them as built).

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SCHEMAS } from '../../../transport/schemas/responses.js';
import { COMPILED_DIR, compiledName } from '../../../transport/serialise/compile-json.js';

test('every response schema has its standalone serialiser, built with the code', () => {
  for (const [name, schema] of Object.entries(SCHEMAS))
    assert.ok(existsSync(COMPILED_DIR + compiledName(schema)), `${name}: ${compiledName(schema)}`);
});

test('loading the server, its routes and every serialiser does not load fast-json-stringify', () => {
  const server = fileURLToPath(new URL('../../../transport/server.js', import.meta.url));
  const probe = `await import(${JSON.stringify(server)}); const { createRequire } = await import('node:module'); const loaded = Object.keys(createRequire(import.meta.url).cache).filter((k) => /fast-json-stringify[\\\\/]index\\.js$|[\\\\/]ajv[\\\\/]/.test(k)); console.log(JSON.stringify(loaded));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', probe], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  assert.deepEqual(JSON.parse(run.stdout), []);
});
