// The batch K-line answer: rows of several symbols keyed by symbol in request order.

import type { KlineField } from '../../engine/columns.js';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import type { AdjustMode } from '../../engine/kernels/adjust.js';
import type { WindowQuery } from '../../engine/kernels/kline-window.js';
import type { Period } from '../../engine/kernels/periods.js';
import { klineSlice, periodSlice } from '../../engine/queries/klines.js';
import { arrayOf, int, mapOf, object, str } from '../schemas/common.js';
import { klineFieldNames, klineRow, market } from '../schemas/rows.js';
import type { BodyPart } from '../serialise/assemble.js';
import {
  FEW_ROWS_EACH,
  type PeriodSeries,
  renderDayOf,
  renderKlineRows,
  renderWindowsOf,
  seriesRows,
} from '../caches/kline-text.js';
import { klineRows } from '../serialise/rows.js';
import { fieldNames, fieldNamesJson } from './klines.js';
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

export interface KlinesBatchResult {
  dataset: Dataset;
  m: MarketData;
  window: WindowQuery;
  adj: AdjustMode;
  fields: KlineField[];
  /** The bars' length: `day` (rows), or a period (each window then counts bars of its `series`). */
  period: Period;
  /** Per found symbol, in request order: its position and rows [from, to), or bars [from, to) of its rendered series. */
  windows: { i: number; from: number; to: number; series: PeriodSeries | null }[];
  /** Total rows over all symbols. */
  count: number;
  /** Requested codes that exist nowhere, as given. */
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
  json(r) {
    const { m } = r;
    const body: BodyPart[] = [
      `{"market":"${m.market}","count":${r.count},"limit":${r.window.limit},"offset":${r.window.offset},"fields":${fieldNamesJson(r.fields)},"data":{`,
    ];
    const { start, end } = r.window;
    if (r.period === 'day' && start !== null && start === end)
      renderDayOf(r.dataset, m, start, r.windows, r.adj, r.fields, body);
    else if (r.period === 'day' && r.windows.every((w) => w.to - w.from <= FEW_ROWS_EACH))
      renderWindowsOf(m, r.windows, r.adj, r.fields, body); // a few days of each symbol: written, not chunked
    else
      r.windows.forEach((w, n) => {
        body.push(`${n > 0 ? ',' : ''}"${m.symbols.codes[w.i]}":[`); // codes need no escaping
        if (w.series !== null) seriesRows(w.series, w.from, w.to, body);
        else renderKlineRows(r.dataset, m, w.i, r.adj, r.fields, w.from, w.to, body);
        body.push(']');
      });
    body.push(r.missing.length > 0 ? `},"missing":${JSON.stringify(r.missing)}}` : '}}');
    return body;
  },
  value(r): KlinesBatchValue {
    const data: Record<string, Row[]> = {};
    for (const w of r.windows) {
      const code = r.m.symbols.codes[w.i];
      const slice =
        r.period === 'day'
          ? klineSlice(r.m, w.i, r.window, r.adj, r.fields)
          : periodSlice(r.m, w.i, r.window, r.period, r.adj, r.fields);
      data[code] = klineRows(slice, code, r.fields);
    }
    const value: KlinesBatchValue = {
      market: r.m.market,
      count: r.count,
      limit: r.window.limit,
      offset: r.window.offset,
      fields: fieldNames(r.fields),
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
