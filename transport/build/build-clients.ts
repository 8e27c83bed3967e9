// Build step (after tsc): the OpenAPI and AsyncAPI documents written to dist/, the TypeScript client's
// types generated from them (its scripts/generate.js: src/schema.ts and src/stream-schema.ts, by
// openapi-typescript), and the client compiled, so the types ship in its dist/ (schema.d.ts and
// stream-schema.d.ts beside index.d.ts). The types are never written by hand: a route, a shape or a
// stream message changed here changes the client's types at the next build.

import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { DEFAULT_PLANS } from '../../engine/plans.js';
import { buildOpenApi } from '../openapi.js';
import { buildAsyncApi } from '../stream/asyncapi.js';

const ROOT = new URL('../../../', import.meta.url);
const CLIENT = fileURLToPath(new URL('clients/typescript/', ROOT));
const OPENAPI = fileURLToPath(new URL('dist/openapi.json', ROOT));
const ASYNCAPI = fileURLToPath(new URL('dist/asyncapi.json', ROOT));

const { version } = JSON.parse(readFileSync(new URL('package.json', ROOT), 'utf8')) as { version: string };
writeFileSync(OPENAPI, `${JSON.stringify(buildOpenApi(), null, 2)}\n`);
writeFileSync(ASYNCAPI, `${JSON.stringify(buildAsyncApi(DEFAULT_PLANS, version), null, 2)}\n`);

/** Runs `args` with node; the build stops with its exit code if it fails. */
function node(args: string[]): void {
  const ran = spawnSync(process.execPath, args, { stdio: 'inherit' });
  if (ran.status !== 0) process.exit(ran.status ?? 1);
}
node([`${CLIENT}scripts/generate.js`, OPENAPI, ASYNCAPI]);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
// The client, then the repository's test of it, which type-checks against the client's dist/.
for (const project of [CLIENT, fileURLToPath(new URL('test/clients/', ROOT))]) node([tsc, '-p', project]);
