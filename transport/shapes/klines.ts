// The single-symbol K-line answer: schema, JSON from the rendered-row cache, plain value, CSV rows,
// each read from the K-line query's one result.

import { type KlineResult, sliceOf } from '../../engine/queries/klines.js';
import { arrayOf, int, object, str } from '../schemas/common.js';
import { klineFieldNames, klineRow, market } from '../schemas/rows.js';
import type { BodyPart } from '../serialise/assemble.js';
import { fieldNames, fieldNamesJson } from '../serialise/kline-json.js';
import { klineRows } from '../serialise/rows.js';
import type { PageValue, Shape } from './shape.js';
import {
  addOffset,
  addPage,
  builder,
  klineColumns,
  layout,
  type Offset,
  type Row,
  selectedKlineFields,
  text,
  texts,
} from '../serialise/flatbuffer-kit.js';

/** One symbol's answer, as the K-line query found it (one window). */
export type KlinesResult = KlineResult;

export const klinesShape: Shape<KlinesResult> = {
  name: 'klines',
  table: 'Klines',
  flatbuffer: klinesTable,
  schema: object({
    market,
    symbol: str,
    count: int,
    total: int,
    offset: int,
    limit: int,
    fields: klineFieldNames,
    data: arrayOf(klineRow),
  }),
  json(r, rows) {
    const w = r.windows[0];
    const { window, fields } = r.ask;
    // Symbol codes are validated to [A-Za-z0-9._-] at load, so they are written unescaped.
    const pieces: BodyPart[] = [
      `{"market":"${r.m.market}","symbol":"${r.m.symbols.codes[w.i]}","count":${r.count},"total":${r.total},` +
        `"offset":${window.offset},"limit":${window.limit},"fields":${fieldNamesJson(fields)},"data":[`,
    ];
    rows.klineRows.rows(r, w, pieces);
    pieces.push(']}');
    return pieces;
  },
  value(r): KlinesValue {
    const w = r.windows[0];
    const code = r.m.symbols.codes[w.i];
    const { window, fields } = r.ask;
    return {
      market: r.m.market,
      symbol: code,
      count: r.count,
      total: r.total,
      offset: window.offset,
      limit: window.limit,
      fields: fieldNames(fields),
      data: klineRows(sliceOf(r, w), code, fields),
    };
  },
  csv: (value: KlinesValue) => ({
    columns: value.fields,
    rows: value.data.map((row) => value.fields.map((f) => row[f])),
  }),
};

// ---- its FlatBuffers table (transport/schemas/mdq.fbs) ------------------------------------

const KLINES = layout(['market', 'symbol', 'count', 'total', 'offset', 'limit', 'fields', 'columns']);

/** The single-symbol K-line answer's value (msgpack, FlatBuffers, Arrow and CSV all read this one type). */
interface KlinesValue extends PageValue {
  market: string;
  symbol: string;
  fields: string[];
  data: Row[];
}

function klinesTable(v: KlinesValue): Offset {
  const [market, symbol, fields] = [text(v.market), text(v.symbol), texts(v.fields)];
  const columns = klineColumns(v.data, selectedKlineFields(v.fields));
  const at = KLINES.at;
  builder.startObject(KLINES.size);
  addOffset(at.market, market);
  addOffset(at.symbol, symbol);
  addPage(at, v);
  addOffset(at.fields, fields);
  addOffset(at.columns, columns);
  return builder.endObject();
}
