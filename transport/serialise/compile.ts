// The compiled serialisers of every schema by name (the shapes compile their own too): tests and the health body.

import { SCHEMAS, type SchemaName } from '../schemas/responses.js';
import { compileJson, type Serialiser } from './compile-json.js';

export type { Serialiser };

/** Serialisers by schema name, compiled on first import (start-up), never on a request. */
export const serialisers = Object.fromEntries(
  Object.entries(SCHEMAS).map(([name, schema]) => [name, compileJson(schema)]),
) as Record<SchemaName, Serialiser>;
