// Schemas of the rows several shapes share: K-line rows, snapshot rows, the market enum.

import { KLINE_FIELD_DOCS, KLINE_FIELDS, SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import { MARKETS } from '../../engine/markets.js';
import { arrayOf, date, nullableDate, nullableNum, nullableStr, num, object, type Schema, str } from './common.js';

export const market: Schema = { type: 'string', enum: [...MARKETS], description: 'Market, as in the path.' };

/** `schema` with a description (a copy: the building blocks are shared). */
const described = (schema: Schema, description: string): Schema => ({ ...schema, description });

/** A K-line row: symbol, date, the selected fields (any subset, fixed order), adj_factor. */
export const klineRow = object(
  {
    symbol: described(str, KLINE_FIELD_DOCS.symbol),
    date: described(date, KLINE_FIELD_DOCS.date),
    ...Object.fromEntries(KLINE_FIELDS.map((f) => [f, described(nullableNum, KLINE_FIELD_DOCS[f])])),
    adj_factor: described(num, KLINE_FIELD_DOCS.adj_factor),
  },
  [...KLINE_FIELDS],
  'One trading day of one symbol; only the selected fields appear, always in this order.',
);

/** A detail snapshot: symbol and date always, any other column when selected (spec table order). */
export const snapshotRow = object(
  Object.fromEntries(
    SNAPSHOT_COLUMNS.map((c) => [
      c.name,
      described(
        c.name === 'symbol' ? str : c.name === 'date' ? nullableDate : c.kind === 'string' ? nullableStr : nullableNum,
        c.doc,
      ),
    ]),
  ),
  SNAPSHOT_COLUMNS.map((c) => c.name).filter((n) => n !== 'symbol' && n !== 'date'),
  'The latest snapshot of one symbol; only the selected columns appear, always in this order. Answered numbers are rounded to 4 decimals.',
);

/** The `fields` array of K-line answers. */
export const klineFieldNames: Schema = arrayOf({
  type: 'string',
  enum: ['symbol', 'date', ...KLINE_FIELDS, 'adj_factor'],
});
