// One answer in the negotiated format: the format's writer (answers/formats/) and its Content-Type.

import type { Body } from '../answers/formats/format.js';
import { FORMAT_OF, type Format } from '../answers/formats/index.js';
import type { Reply } from '../route.js';
import type { RowCaches } from '../shapes/shape.js';

export interface Rendered {
  body: Body;
  type: string;
}

/**
 * The body of `reply` in `format` (the caller has made sure the shape offers it: CSV needs
 * rows), JSON from and into `rows`, the rendered rows of the reply's Dataset. A msgpack, FlatBuffers or Arrow body is a view of a buffer the next render of that format
 * reuses, as a JSON body's pieces are joined in a reused buffer: send, compress or copy it
 * before rendering again (the response cache keeps a copy of its own). Rendering thus
 * leaves no answer-sized garbage, which V8 frees only at its next collection and which had
 * kept glibc's heaps larger than their live data between collections.
 */
export function render(reply: Reply, format: Format, rows: RowCaches): Rendered {
  const f = FORMAT_OF[format];
  return { body: f.write(reply, rows), type: f.contentType };
}
