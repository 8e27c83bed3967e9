// The client's generated types, both by openapi-typescript: src/schema.ts from the service's OpenAPI
// document, and src/stream-schema.ts from its AsyncAPI document (GET /api/v1/stream's messages): each
// message's payload (JSON Schema) becomes a schema of `components`, with `ServerMessage` (every message
// the server sends) and `ClientMessage` (every one it receives) as unions of them.
//
//   node scripts/generate.js [openapi] [asyncapi]
//
// Each a file or a URL; by default those of the server at MDQ_URL (http://127.0.0.1:8080).

import { readFile, writeFile } from 'node:fs/promises';
import openapiTS, { astToString } from 'openapi-typescript';

const SRC = new URL('../src/', import.meta.url);
const BASE = `${(process.env.MDQ_URL ?? 'http://127.0.0.1:8080').replace(/\/+$/, '')}/api/v1`;
const HEADER = (what) => `// Generated from the service's ${what} by openapi-typescript at build time: do not edit.\n`;

/** A document from a URL or a file. */
async function load(where) {
  if (/^https?:\/\//.test(where)) {
    const res = await fetch(where);
    if (!res.ok) throw new Error(`${where}: ${res.status} ${res.statusText}`);
    return res.json();
  }
  return JSON.parse(await readFile(where, 'utf8'));
}

/** The value a local `$ref` ("#/a/b") points at, following refs until one holds no `$ref`. */
function resolve(doc, value) {
  let at = value;
  while (at !== null && typeof at === 'object' && typeof at.$ref === 'string') {
    at = at.$ref
      .slice(2)
      .split('/')
      .reduce((node, part) => node[part.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
  }
  return at;
}

/**
 * The AsyncAPI 3 document's messages as an OpenAPI 3.1 document's component schemas (both speak JSON
 * Schema), plus the two unions read from its operations: what the server sends, what it receives.
 */
function streamSchemas(asyncapi) {
  const schemas = {};
  const byAction = { send: [], receive: [] };
  for (const operation of Object.values(asyncapi.operations)) {
    for (const ref of operation.messages) {
      const message = resolve(asyncapi, ref);
      schemas[message.name] = message.payload;
      byAction[operation.action].push({ $ref: `#/components/schemas/${message.name}` });
    }
  }
  schemas.ServerMessage = { oneOf: byAction.send, description: 'Every message the server sends, by `type`.' };
  schemas.ClientMessage = { oneOf: byAction.receive, description: 'Every message a client may send.' };
  return {
    openapi: '3.1.0',
    info: { title: asyncapi.info.title, version: asyncapi.info.version },
    paths: {},
    components: { schemas },
  };
}

const [openapi = `${BASE}/openapi.json`, asyncapi = `${BASE}/asyncapi.json`] = process.argv.slice(2);
await writeFile(
  new URL('schema.ts', SRC),
  HEADER('OpenAPI document') + astToString(await openapiTS(await load(openapi))),
);
await writeFile(
  new URL('stream-schema.ts', SRC),
  HEADER('AsyncAPI document (its message payloads)') +
    astToString(await openapiTS(streamSchemas(await load(asyncapi)))),
);
