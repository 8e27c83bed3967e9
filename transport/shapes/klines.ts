// The single-symbol K-line answer: schema, JSON from the rendered-row cache, plain value, CSV rows.

import type { KlineField } from '../../engine/columns.js';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import type { AdjustMode } from '../../engine/kernels/adjust.js';
import type { WindowQuery } from '../../engine/kernels/kline-window.js';
import type { Period } from '../../engine/kernels/periods.js';
import { klineSlice, periodSlice } from '../../engine/queries/klines.js';
import { arrayOf, int, object, str } from '../schemas/common.js';
import { klineFieldNames, klineRow, market } from '../schemas/rows.js';
import type { BodyPart } from '../serialise/assemble.js';
import { fieldMask, type PeriodSeries, renderKlineRows, seriesRows } from '../caches/kline-text.js';
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

/** One symbol's window of rows, as the engine found it. */
export interface KlinesResult {
  dataset: Dataset;
  m: MarketData;
  /** The symbol's position in the market. */
  i: number;
  window: WindowQuery;
  /** Rows [from, to) of the market's columns; `total` counts the date range. */
  from: number;
  to: number;
  total: number;
  adj: AdjustMode;
  /** The row whose factor qfq divides by (the latest unless `qfq_base` chose another). */
  base: number;
  fields: KlineField[];
  /** The bars' length: `day` (rows), or a period whose bars [from, to) of `series` are answered. */
  period: Period;
  /** The rendered bars of the symbol's series (kept with the rendered rows), when `period` is not day. */
  series: PeriodSeries | null;
}

/** The `fields` array of a response: symbol, date, the selected columns, adj_factor. */
export const fieldNames = (fields: readonly KlineField[]): string[] => ['symbol', 'date', ...fields, 'adj_factor'];

/** fieldNames as JSON, by field mask: written once per field set (fields come in catalogue order, so the set names the list). */
const fieldNamesJsonOf: string[] = [];

/** JSON of the `fields` array of a response (an answer's envelope writes it on every fresh answer). */
export const fieldNamesJson = (fields: readonly KlineField[]): string =>
  (fieldNamesJsonOf[fieldMask(fields)] ??= JSON.stringify(fieldNames(fields)));

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
  json(r) {
    // Symbol codes are validated to [A-Za-z0-9._-] at load, so they are written unescaped.
    const pieces: BodyPart[] = [
      `{"market":"${r.m.market}","symbol":"${r.m.symbols.codes[r.i]}","count":${r.to - r.from},"total":${r.total},` +
        `"offset":${r.window.offset},"limit":${r.window.limit},"fields":${fieldNamesJson(r.fields)},"data":[`,
    ];
    if (r.series !== null) seriesRows(r.series, r.from, r.to, pieces);
    else renderKlineRows(r.dataset, r.m, r.i, r.adj, r.fields, r.from, r.to, pieces, r.base);
    pieces.push(']}');
    return pieces;
  },
  value(r): KlinesValue {
    const code = r.m.symbols.codes[r.i];
    const slice =
      r.period === 'day'
        ? klineSlice(r.m, r.i, r.window, r.adj, r.fields, r.base)
        : periodSlice(r.m, r.i, r.window, r.period, r.adj, r.fields);
    return {
      market: r.m.market,
      symbol: code,
      count: slice.count,
      total: slice.total,
      offset: r.window.offset,
      limit: r.window.limit,
      fields: fieldNames(r.fields),
      data: klineRows(slice, code, r.fields),
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
