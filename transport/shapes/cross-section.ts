// The cross-section answer: every symbol's K-line row of one day, by symbol, paged.

import { dateText } from '../../engine/calendar/date-text.js';
import { type KlineField, PRICE_FIELDS } from '../../engine/columns.js';
import type { MarketData } from '../../engine/dataset/dataset.js';
import { adjustedSlice, type AdjustMode } from '../../engine/kernels/adjust.js';
import type { DayRows } from '../../engine/queries/cross-section.js';
import { arrayOf, date, int, object } from '../schemas/common.js';
import { klineFieldNames, klineRow, market } from '../schemas/rows.js';
import type { BodyPart } from '../serialise/assemble.js';
import { renderRowsOf } from '../caches/kline-text.js';
import { nullable } from '../serialise/rows.js';
import { fieldNames, fieldNamesJson } from './klines.js';
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

export interface CrossSectionResult {
  m: MarketData;
  day: number;
  /** Every row of the day (`total` is their count); the page is [offset, offset + count). */
  all: DayRows;
  offset: number;
  limit: number;
  count: number;
  adj: AdjustMode;
  fields: KlineField[];
}

/** The page's rows: the day's rows from `offset`, `count` of them. */
const pageOf = (r: CrossSectionResult): DayRows => ({
  symbols: r.all.symbols.subarray(r.offset, r.offset + r.count),
  rows: r.all.rows.subarray(r.offset, r.offset + r.count),
});

const head = (r: CrossSectionResult): string =>
  `{"market":"${r.m.market}","date":"${dateText(r.day)}","total":${r.all.rows.length},"count":${r.count},` +
  `"limit":${r.limit},"offset":${r.offset},"fields":${fieldNamesJson(r.fields)},"data":[`;

export const crossSectionShape: Shape<CrossSectionResult> = {
  name: 'crossSection',
  table: 'CrossSection',
  flatbuffer: crossSectionTable,
  schema: object({
    market,
    date: { ...date, description: 'The day asked for, YYYY-MM-DD.' },
    total: int,
    count: int,
    limit: int,
    offset: int,
    fields: klineFieldNames,
    data: arrayOf(klineRow),
  }),
  json(r) {
    const page = pageOf(r);
    const body: BodyPart[] = [head(r)];
    renderRowsOf(r.m, page.symbols, page.rows, r.adj, r.fields, body);
    body.push(']}');
    return body;
  },
  value(r): CrossSectionValue {
    const k = r.m.klines;
    const page = pageOf(r);
    const data = Array.from(page.rows, (row, n) => {
      const i = page.symbols[n];
      const out: Record<string, string | number | null> = { symbol: r.m.symbols.codes[i], date: dateText(k.date[row]) };
      for (const field of r.fields) {
        const adjusted =
          r.adj !== 'bfq' && PRICE_FIELDS.has(field)
            ? adjustedSlice(k[field], k.adj_factor, row, row + 1, r.adj, k.offsets[i + 1] - 1)[0]
            : k[field][row];
        out[field] = nullable(adjusted);
      }
      out.adj_factor = k.adj_factor[row];
      return out;
    });
    return {
      market: r.m.market,
      date: dateText(r.day),
      total: r.all.rows.length,
      count: r.count,
      limit: r.limit,
      offset: r.offset,
      fields: fieldNames(r.fields),
      data,
    };
  },
  csv: (value: CrossSectionValue) => ({
    columns: value.fields,
    rows: value.data.map((row) => value.fields.map((f) => row[f])),
  }),
};

// ---- its FlatBuffers table (transport/schemas/mdq.fbs) ------------------------------------

const CROSS_SECTION = layout(['market', 'date', 'total', 'count', 'limit', 'offset', 'fields', 'symbols', 'columns']);

/** The cross-section answer's value (msgpack, FlatBuffers, Arrow and CSV all read this one type). */
interface CrossSectionValue extends PageValue {
  market: string;
  date: string;
  fields: string[];
  data: Row[];
}

function crossSectionTable(v: CrossSectionValue): Offset {
  const [market, day, fields] = [text(v.market), text(v.date), texts(v.fields)];
  const symbols = texts(v.data.map((row) => row.symbol));
  const columns = klineColumns(v.data, selectedKlineFields(v.fields));
  const at = CROSS_SECTION.at;
  builder.startObject(CROSS_SECTION.size);
  addOffset(at.market, market);
  addOffset(at.date, day);
  addPage(at, v);
  addOffset(at.fields, fields);
  addOffset(at.symbols, symbols);
  addOffset(at.columns, columns);
  return builder.endObject();
}
