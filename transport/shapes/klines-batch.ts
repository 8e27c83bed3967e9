// The batch K-line answer: rows of several symbols keyed by symbol in request order.

import { type KlineResult, sliceOf } from '../../engine/queries/klines.js';
import { arrayOf, int, mapOf, object, str } from '../schemas/common.js';
import { klineFieldNames, klineRow, market } from '../schemas/rows.js';
import { FEW_ROWS } from '../caches/kline-text.js';
import type { BodyPart } from '../serialise/assemble.js';
import { fieldNames, fieldNamesJson, writeWindowsOf } from '../serialise/kline-json.js';
import { klineRows } from '../serialise/rows.js';
import type { PageValue, Shape } from './shape.js';
import {
  addOffset,
  addPage,
  builder,
  klineColumns,
  layout,
  type Offset,
  offsets,
  type Row,
  selectedKlineFields,
  text,
  texts,
} from '../serialise/flatbuffer-kit.js';

/** Several symbols' answer as the K-line query found it (each found symbol's window, in request order), and the codes that exist nowhere, as given. */
export interface KlinesBatchResult extends KlineResult {
  missing: string[];
}

export const klinesBatchShape: Shape<KlinesBatchResult> = {
  name: 'klinesBatch',
  table: 'KlinesBatch',
  flatbuffer: klinesBatchTable,
  schema: object(
    {
      market,
      count: int,
      limit: int,
      offset: int,
      fields: klineFieldNames,
      data: mapOf(arrayOf(klineRow)),
      missing: arrayOf(str),
    },
    ['missing'],
  ),
  json(r, rows) {
    const { m } = r;
    const { window, fields } = r.ask;
    const body: BodyPart[] = [
      `{"market":"${m.market}","count":${r.count},"limit":${window.limit},"offset":${window.offset},"fields":${fieldNamesJson(fields)},"data":{`,
    ];
    if (r.day !== null) rows.klineRows.daySegments(r, body);
    else if (r.ask.period === 'day' && r.windows.every((w) => w.to - w.from <= FEW_ROWS))
      writeWindowsOf(r, body); // a few days of each symbol: written, not chunked
    else
      r.windows.forEach((w, n) => {
        body.push(`${n > 0 ? ',' : ''}"${m.symbols.codes[w.i]}":[`); // codes need no escaping
        rows.klineRows.rows(r, w, body);
        body.push(']');
      });
    body.push(r.missing.length > 0 ? `},"missing":${JSON.stringify(r.missing)}}` : '}}');
    return body;
  },
  value(r): KlinesBatchValue {
    const data: Record<string, Row[]> = {};
    for (const w of r.windows) {
      const code = r.m.symbols.codes[w.i];
      data[code] = klineRows(sliceOf(r, w), code, r.ask.fields);
    }
    const value: KlinesBatchValue = {
      market: r.m.market,
      count: r.count,
      limit: r.ask.window.limit,
      offset: r.ask.window.offset,
      fields: fieldNames(r.ask.fields),
      data,
    };
    if (r.missing.length > 0) value.missing = r.missing;
    return value;
  },
  // Rows of every symbol, one after another; each row already carries its symbol.
  csv: (value: KlinesBatchValue) => ({
    columns: value.fields,
    rows: Object.values(value.data).flatMap((rows) => rows.map((row) => value.fields.map((f) => row[f]))),
  }),
};

// ---- its FlatBuffers table (transport/schemas/mdq.fbs) ------------------------------------

const SYMBOL_KLINES = layout(['symbol', 'columns']);
const KLINES_BATCH = layout(['market', 'count', 'limit', 'offset', 'fields', 'data', 'missing']);

/** The batch K-line answer's value (msgpack, FlatBuffers, Arrow and CSV all read this one type); it has no total. */
interface KlinesBatchValue extends Omit<PageValue, 'total'> {
  market: string;
  fields: string[];
  data: Record<string, Row[]>;
  missing?: string[];
}

function symbolKlinesTable(symbol: string, rows: readonly Row[], selected: readonly string[]): Offset {
  const [name, columns] = [text(symbol), klineColumns(rows, selected)];
  builder.startObject(SYMBOL_KLINES.size);
  addOffset(SYMBOL_KLINES.at.symbol, name);
  addOffset(SYMBOL_KLINES.at.columns, columns);
  return builder.endObject();
}

function klinesBatchTable(v: KlinesBatchValue): Offset {
  const selected = selectedKlineFields(v.fields);
  const [market, fields] = [text(v.market), texts(v.fields)];
  const data = offsets(Object.entries(v.data).map(([symbol, rows]) => symbolKlinesTable(symbol, rows, selected)));
  const missing = v.missing ? texts(v.missing) : 0;
  const at = KLINES_BATCH.at;
  builder.startObject(KLINES_BATCH.size);
  addOffset(at.market, market);
  addPage(at, v);
  addOffset(at.fields, fields);
  addOffset(at.data, data);
  addOffset(at.missing, missing);
  return builder.endObject();
}
