// JSON: the shape's fast path (compiled serialisers, cached row text), the default format.

import type { ResponseFormat } from './format.js';

export const json: ResponseFormat<'json'> = {
  name: 'json',
  contentType: 'application/json; charset=utf-8',
  mediaTypes: ['application/json'],
  paramDoc: 'application/json',
  refusal: () => null,
  openApi: (shapes, schema, examples) =>
    examples.length === 1
      ? { schema, example: examples[0] }
      : { schema, examples: Object.fromEntries(shapes.map((s, i) => [s.name, { value: examples[i] }])) },
  write: ({ shape, result }, rows) => shape.json(result, rows),
};
