// The OpenAPI 3.1 document, built from the same schemas that compile the serialisers.

import { SCHEMAS } from './schemas/responses.js';

/** Placeholder until the full document lands: the component schemas only. */
export function buildOpenApi(): Record<string, unknown> {
  return {
    openapi: '3.1.0',
    info: { title: 'Market data query service', version: '1.0.0' },
    paths: {},
    components: { schemas: SCHEMAS },
  };
}
