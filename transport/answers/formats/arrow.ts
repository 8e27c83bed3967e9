// Arrow: the answer's rows as an Arrow IPC stream (one record batch), its scalars in the schema's metadata.

import { arrowOf, rowSchemaOf, scalarMetadata } from '../../serialise/to-arrow.js';
import type { ResponseFormat } from './format.js';

export const arrow: ResponseFormat<'arrow'> = {
  name: 'arrow',
  contentType: 'application/vnd.apache.arrow.stream',
  mediaTypes: ['application/vnd.apache.arrow.stream'],
  paramDoc: 'application/vnd.apache.arrow.stream; not for /quota',
  refusal: (shape) => (shape.csv === null ? 'Arrow is not offered for this answer: it has no rows' : null),
  openApi: () => ({
    schema: {
      type: 'string',
      format: 'binary',
      description:
        "An Arrow IPC stream of one record batch: the CSV answer's columns (the JSON rows' keys), dates as date32, numbers float64, text utf8 (dictionary-encoded where values repeat), nulls as Arrow nulls; the answer's other keys (market, total, count, …) in the schema's metadata, text as it is and anything else as JSON. Read it with `pyarrow.ipc.open_stream`, `polars.read_ipc_stream` or apache-arrow's `tableFromIPC`.",
    },
  }),
  write({ shape, result }) {
    const value = shape.value(result) as Record<string, unknown>;
    return arrowOf(shape.csv!(value, result), rowSchemaOf(shape.schema), scalarMetadata(value));
  },
};
