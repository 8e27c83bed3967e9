// Compiles every response schema once at start-up into a fast-json-stringify serialiser.

import fastJson from 'fast-json-stringify';
import { SCHEMAS, type ShapeName } from '../schemas/responses.js';

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

/** Serialisers by shape name, compiled on first import (start-up), never on a request. */
export const serialisers = Object.fromEntries(
  Object.entries(SCHEMAS).map(([name, schema]) => [name, fastJson(withoutRequired(schema) as Parameters<typeof fastJson>[0]) as Serialiser]),
) as Record<ShapeName, Serialiser>;
