// FlatBuffers: the shape's plain value as a FlatBuffer of schemas/mdq.fbs, one root table per shape.

import { FLATBUFFERS_SCHEMA_PATH, finishedView } from '../../serialise/flatbuffer-kit.js';
import { SHAPES, type ShapeName } from '../../shapes/index.js';
import type { ResponseFormat } from './format.js';

/** Which root table of /api/v1/schema.fbs a flatbuffers answer of each shape holds (readers pick their accessor by it). */
export const FLATBUFFER_TABLES = Object.fromEntries(
  Object.values(SHAPES).map((shape) => [shape.name, shape.table]),
) as Readonly<Record<ShapeName, string>>;

/** The shapes answered as FlatBuffers: every data shape (problem and health bodies stay JSON). */
export type FlatShapeName = ShapeName;

/** The shape names flatbuffersOf encodes, in schema order. */
export const FLATBUFFER_SHAPES = Object.keys(SHAPES) as FlatShapeName[];

/**
 * The value of a response shape (what the JSON serialiser receives) as a FlatBuffer whose root
 * is that shape's table in mdq.fbs, as a view of the kit's reused builder: valid until the next
 * call. Throws an Error for a name that is no shape (problem, health), a RangeError for an
 * integer its field cannot hold.
 */
export function flatbuffersView(name: FlatShapeName, value: unknown): Uint8Array {
  const shape = Object.hasOwn(SHAPES, name) ? SHAPES[name] : undefined;
  if (shape === undefined) throw new Error(`the '${String(name)}' shape has no FlatBuffers encoding`);
  return finishedView(shape.flatbuffer, value);
}

/** flatbuffersView as a fresh copy the caller owns. */
export const flatbuffersOf = (name: FlatShapeName, value: unknown): Uint8Array => flatbuffersView(name, value).slice();

export { FLATBUFFERS_SCHEMA_PATH };

export const flatbuffers: ResponseFormat<'flatbuffers'> = {
  name: 'flatbuffers',
  contentType: 'application/x-flatbuffers',
  mediaTypes: ['application/x-flatbuffers'],
  paramDoc: 'application/x-flatbuffers, schema at /api/v1/schema.fbs',
  refusal: () => null,
  openApi: (shapes) => ({
    schema: {
      type: 'string',
      format: 'binary',
      description: `A FlatBuffer whose root is table ${shapes.map((s) => `\`mdq.${s.table}\``).join(' or ')} of /api/v1/schema.fbs.`,
    },
  }),
  write({ shape, result }) {
    const bytes = finishedView(shape.flatbuffer, shape.value(result)); // the builder's bytes: wrapped, not copied
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
};
