// FlatBuffers: the shape's plain value as a FlatBuffer of schemas/mdq.fbs, one root table per shape.

import { flatbuffersView } from '../../serialise/to-flatbuffers.js';
import type { ShapeName } from '../../shapes/shape.js';
import type { ResponseFormat } from './format.js';

/** Which root table of /api/v1/schema.fbs a flatbuffers answer of each shape holds (readers pick their accessor by it). */
export const FLATBUFFER_TABLES: Readonly<Record<ShapeName, string>> = {
  markets: 'Markets',
  symbols: 'Symbols',
  calendar: 'Calendar',
  actions: 'Actions',
  klines: 'Klines',
  klinesBatch: 'KlinesBatch',
  crossSection: 'CrossSection',
  detail: 'Detail',
  detailBatch: 'DetailBatch',
  screen: 'Screen',
  macro: 'Macro',
  macroIndicators: 'MacroIndicators',
  quota: 'Quota',
};

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
      description: `A FlatBuffer whose root is table ${shapes.map((s) => `\`mdq.${FLATBUFFER_TABLES[s.name]}\``).join(' or ')} of /api/v1/schema.fbs.`,
    },
  }),
  write({ shape, result }) {
    const bytes = flatbuffersView(shape.name, shape.value(result)); // the builder's bytes: wrapped, not copied
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
};
