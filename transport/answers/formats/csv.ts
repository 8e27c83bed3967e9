// CSV (RFC 4180): the rows of the shape's plain value; offered only by shapes with rows.

import { toCsv } from '../../serialise/to-csv.js';
import type { ResponseFormat } from './format.js';

export const csv: ResponseFormat<'csv'> = {
  name: 'csv',
  contentType: 'text/csv; charset=utf-8',
  mediaTypes: ['text/csv'],
  paramDoc: 'text/csv; not for /quota',
  refusal: (shape) => (shape.csv === null ? 'CSV is not offered for this answer: it has no rows' : null),
  openApi: () => ({
    schema: {
      type: 'string',
      description: 'RFC 4180 CSV: a header row of the row keys, one CRLF line per row, nulls as empty cells.',
    },
  }),
  write({ shape, result }) {
    const value = shape.value(result);
    return toCsv(shape.csv!(value, result));
  },
};
