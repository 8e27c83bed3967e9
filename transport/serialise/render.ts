// One answer in the negotiated format: the shape's JSON fast path, or its value as msgpack, flatbuffers or CSV.

import { Packr, RESET_BUFFER_MODE } from 'msgpackr';
import { FORMATS, type Format } from '../http/negotiate.js';
import type { Reply } from '../route.js';
import type { BodyPart } from './assemble.js';
import { flatbuffersView } from './to-flatbuffers.js';
import { toCsv } from './to-csv.js';

/** Plain msgpack maps and arrays (no msgpackr record extension), so any msgpack client reads them. */
const packr = new Packr({ useRecords: false, variableMapSize: true });

export interface Rendered {
  body: string | Buffer | BodyPart[];
  type: string;
}

/**
 * The body of `reply` in `format` (the caller has made sure the shape offers it: CSV needs
 * rows). A msgpack or FlatBuffers body is a view of a buffer the next render of that format
 * reuses, as a JSON body's pieces are joined in a reused buffer: send, compress or copy it
 * before rendering again (the response cache keeps a copy of its own). Rendering thus
 * leaves no answer-sized garbage, which V8 frees only at its next collection and which had
 * kept glibc's heaps larger than their live data between collections.
 */
export function render(reply: Reply, format: Format): Rendered {
  const { shape, result } = reply;
  switch (format) {
    case 'json':
      return { body: shape.json(result), type: FORMATS.json };
    case 'msgpack':
      return { body: packr.pack(shape.value(result), RESET_BUFFER_MODE), type: FORMATS.msgpack }; // the next pack writes over it
    case 'flatbuffers': {
      const bytes = flatbuffersView(shape.name, shape.value(result)); // the builder's bytes: wrapped, not copied
      return { body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength), type: FORMATS.flatbuffers };
    }
    case 'csv': {
      const value = shape.value(result);
      return { body: toCsv(shape.csv!(value, result)), type: FORMATS.csv };
    }
  }
}
