// MessagePack: the shape's plain value as plain msgpack maps and arrays.

import { msgpackView } from '../../serialise/to-msgpack.js';
import type { ResponseFormat } from './format.js';

export const msgpack: ResponseFormat<'msgpack'> = {
  name: 'msgpack',
  contentType: 'application/msgpack',
  // `application/x-msgpack` is msgpack's older name.
  mediaTypes: ['application/msgpack', 'application/x-msgpack'],
  paramDoc: 'application/msgpack',
  refusal: () => null,
  // A Media Type Object has no `description` in OpenAPI 3.1: the note sits on the schema, beside its $ref.
  openApi: (_shapes, schema) => ({
    schema: {
      ...schema,
      description: 'The JSON value as MessagePack (same keys and numbers; dates stay YYYY-MM-DD strings).',
    },
  }),
  write: ({ shape, result }) => msgpackView(shape.value(result)), // the next pack writes over it
};
