// Build step (after tsc): the OpenAPI document written to dist/openapi.json, the TypeScript
// client's types generated from it (openapi-typescript) as src/schema.ts, and the client compiled,
// so the types ship in its dist/ (schema.d.ts beside index.d.ts). The types are never written by
// hand: a route or shape changed here changes the client's types at the next build.

import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
import { buildOpenApi } from '../openapi.js';

const ROOT = new URL('../../../', import.meta.url);
const CLIENT = fileURLToPath(new URL('clients/typescript/', ROOT));

const document = buildOpenApi();
writeFileSync(new URL('dist/openapi.json', ROOT), `${JSON.stringify(document, null, 2)}\n`);
const types = astToString(await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]));
writeFileSync(
  `${CLIENT}src/schema.ts`,
  `// Generated from the service's OpenAPI document by openapi-typescript at build time: do not edit.\n${types}`,
);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
for (const project of [CLIENT, fileURLToPath(new URL('test/clients/', ROOT))]) {
  // The client, then the repository's test of it, which type-checks against the client's dist/.
  const built = spawnSync(process.execPath, [tsc, '-p', project], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}
