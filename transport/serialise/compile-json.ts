// Compiles one response schema into a fast-json-stringify serialiser (at start-up, never per request).

import fastJson from 'fast-json-stringify';
import type { Schema } from '../schemas/common.js';

export type Serialiser = (value: unknown) => string;

/**
 * The schema without `required`: fast-json-stringify writes required properties first,
 * which would move `adj_factor` ahead of the optional price fields. Key order is part of
 * the contract, so the serialiser keeps the schema's order; tests validate `required`.
 */
function withoutRequired(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(Object.entries(schema).filter(([key]) => key !== 'required').map(([key, value]) => [key, withoutRequired(value)]));
}

export function compileJson(schema: Schema): Serialiser {
  return fastJson(withoutRequired(schema) as Parameters<typeof fastJson>[0]) as Serialiser;
}
