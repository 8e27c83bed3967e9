// JSON: the shape's fast path (compiled serialisers, cached row text), the default format.

import type { ResponseFormat } from './format.js';

export const json: ResponseFormat<'json'> = {
  name: 'json',
  contentType: 'application/json; charset=utf-8',
  mediaTypes: ['application/json'],
  paramDoc: 'application/json',
  refusal: () => null,
  openApi: (_shapes, schema, example) => ({ schema, example }),
  write: ({ shape, result }) => shape.json(result),
};
