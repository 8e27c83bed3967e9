// Compiles one response schema into a fast-json-stringify serialiser (at start-up, never per request).
//
// The build writes each schema's serialiser as fast-json-stringify's standalone code
// (write-compiled.ts); a start takes those files, named by the schema's hash, so it never loads
// fast-json-stringify itself (its compiler and Ajv: 0.15 s of a start). A schema without its file
// (changed since the build, or made at run time) is compiled as before.

import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type fastJson from 'fast-json-stringify';
import type { Schema } from '../schemas/common.js';

export type Serialiser = (value: unknown) => string;

const require = createRequire(import.meta.url);
/** Where the build writes the standalone serialisers: `<schema hash>.cjs`. */
export const COMPILED_DIR = fileURLToPath(new URL('./compiled/', import.meta.url));

/**
 * The schema without `required`: fast-json-stringify writes required properties first,
 * which would move `adj_factor` ahead of the optional price fields. Key order is part of
 * the contract, so the serialiser keeps the schema's order; tests validate `required`.
 */
function withoutRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'required')
      .map(([key, value]) => [key, withoutRequired(value)]),
  );
}

/** The name of `schema`'s standalone serialiser: the hash of exactly what is compiled. */
export function compiledName(schema: Schema): string {
  return `${createHash('sha256')
    .update(JSON.stringify(withoutRequired(schema)))
    .digest('hex')
    .slice(0, 16)}.cjs`;
}

/** The standalone code of `schema`'s serialiser (a CommonJS module exporting the function). */
export function standaloneCode(schema: Schema): string {
  return (require('fast-json-stringify') as typeof fastJson)(
    withoutRequired(schema) as Parameters<typeof fastJson>[0],
    { mode: 'standalone' },
  ) as unknown as string;
}

export function compileJson(schema: Schema): Serialiser {
  const file = COMPILED_DIR + compiledName(schema);
  if (existsSync(file)) return require(file) as Serialiser;
  return (require('fast-json-stringify') as typeof fastJson)(
    withoutRequired(schema) as Parameters<typeof fastJson>[0],
  ) as Serialiser;
}
