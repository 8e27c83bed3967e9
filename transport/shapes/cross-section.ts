// The cross-section answer: every symbol's K-line row of one day, by symbol, paged.

import { dateText } from '../../engine/calendar/date-text.js';
import { type KlineResult, sliceOf } from '../../engine/queries/klines.js';
import { arrayOf, date, int, object } from '../schemas/common.js';
import { klineFieldNames, klineRow, market } from '../schemas/rows.js';
import type { BodyPart } from '../serialise/assemble.js';
import { fieldNames, fieldNamesJson, writeRowsOf } from '../serialise/kline-json.js';
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

/** A page of one day's rows, as the K-line query found it: each symbol's row of the day a window, `total` the day's rows. */
export type CrossSectionResult = KlineResult;

const head = (r: CrossSectionResult): string =>
  `{"market":"${r.m.market}","date":"${dateText(r.day!)}","total":${r.total},"count":${r.count},` +
  `"limit":${r.ask.window.limit},"offset":${r.ask.window.offset},"fields":${fieldNamesJson(r.ask.fields)},"data":[`;

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
    const body: BodyPart[] = [head(r)];
    writeRowsOf(r, body);
    body.push(']}');
    return body;
  },
  value(r): CrossSectionValue {
    const data: Row[] = [];
    for (const w of r.windows) data.push(...klineRows(sliceOf(r, w), r.m.symbols.codes[w.i], r.ask.fields));
    return {
      market: r.m.market,
      date: dateText(r.day!),
      total: r.total,
      count: r.count,
      limit: r.ask.window.limit,
      offset: r.ask.window.offset,
      fields: fieldNames(r.ask.fields),
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
