// The API reference at GET /docs: Swagger UI (swagger-ui-dist, served from this process: no CDN)
// rendering the served OpenAPI document. Files read once at start from a fixed list.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** Source files of the page (transport/docs/assets/, beside this module's source). */
const OWN = new URL('../../../transport/docs/assets/', import.meta.url);
const require = createRequire(import.meta.url);

/** Path → type and where the bytes come from. Nothing outside this list is served. */
const FILES = {
  '/docs': { type: 'text/html; charset=utf-8', path: () => fileURLToPath(new URL('docs.html', OWN)) },
  '/docs/docs.js': { type: 'text/javascript; charset=utf-8', path: () => fileURLToPath(new URL('docs.js', OWN)) },
  '/docs/docs.css': { type: 'text/css; charset=utf-8', path: () => fileURLToPath(new URL('docs.css', OWN)) },
  '/docs/swagger-ui-bundle.js': {
    type: 'text/javascript; charset=utf-8',
    path: () => require.resolve('swagger-ui-dist/swagger-ui-bundle.js'),
  },
  '/docs/swagger-ui.css': {
    type: 'text/css; charset=utf-8',
    path: () => require.resolve('swagger-ui-dist/swagger-ui.css'),
  },
} as const;

export type ReferencePath = keyof typeof FILES;
export const REFERENCE_PATHS = Object.keys(FILES) as ReferencePath[];

export interface ReferenceFile {
  type: string;
  /** The file's bytes as sent (not decoded: Swagger UI's 1.7 MB would cost 10 ms of the start). */
  body: Buffer;
}

/** Reads every file of the page (at start: a missing one fails the start, not a request). */
export function loadReferencePage(): ReadonlyMap<ReferencePath, ReferenceFile> {
  return new Map(REFERENCE_PATHS.map((p) => [p, { type: FILES[p].type, body: readFileSync(FILES[p].path()) }]));
}
