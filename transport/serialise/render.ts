// One answer in the negotiated format: the shape's JSON fast path, or its value as msgpack, flatbuffers or CSV.

import { Packr } from 'msgpackr';
import { FORMATS, type Format } from '../http/negotiate.js';
import type { Reply } from '../route.js';
import type { BodyPart } from './assemble.js';
import { flatbuffersOf } from './to-flatbuffers.js';
import { toCsv } from './to-csv.js';

/** Plain msgpack maps and arrays (no msgpackr record extension), so any msgpack client reads them. */
const packr = new Packr({ useRecords: false, variableMapSize: true });

export interface Rendered {
  body: string | Buffer | BodyPart[];
  type: string;
}

/** The body of `reply` in `format` (the caller has made sure the shape offers it: CSV needs rows). */
export function render(reply: Reply, format: Format): Rendered {
  const { shape, result } = reply;
  switch (format) {
    case 'json':
      return { body: shape.json(result), type: FORMATS.json };
    case 'msgpack':
      return { body: packr.pack(shape.value(result)), type: FORMATS.msgpack };
    case 'flatbuffers': {
      const bytes = flatbuffersOf(shape.name, shape.value(result)); // a fresh array: wrapped, not copied
      return { body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), type: FORMATS.flatbuffers };
    }
    case 'csv': {
      const value = shape.value(result);
      return { body: toCsv(shape.csv!(value, result)), type: FORMATS.csv };
    }
  }
}
