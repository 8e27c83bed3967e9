// The screen answer: a page of snapshot rows with the screen's total, sort and order.

import type { SnapshotView } from '../../engine/dataset/dataset.js';
import type { ScreenResult } from '../../engine/queries/screen.js';
import { arrayOf, int, object } from '../schemas/common.js';
import { market, snapshotRow as snapshotRowSchema } from '../schemas/rows.js';
import type { BodyPart } from '../serialise/assemble.js';
import { snapshotRow } from '../serialise/rows.js';
import type { ColumnSet } from './detail.js';
import type { PageValue, Shape } from './shape.js';
import {
  addOffset,
  addPage,
  builder,
  layout,
  type Offset,
  offsets,
  type Row,
  snapshot,
  snapshotFields,
  text,
} from '../serialise/flatbuffer-kit.js';

export interface ScreenPage {
  m: SnapshotView;
  result: ScreenResult;
  set: ColumnSet;
  limit: number;
  offset: number;
  sort: string;
  order: 'asc' | 'desc';
}

/** A byte copy is cheaper than encoding a one-character string fifty times a response. */
const COMMA = Buffer.from(',');

export const screenShape: Shape<ScreenPage> = {
  name: 'screen',
  table: 'Screen',
  flatbuffer: screenTable,
  schema: object({
    market,
    total: int,
    count: int,
    limit: int,
    offset: int,
    sort: { type: 'string' },
    order: { type: 'string', enum: ['asc', 'desc'] },
    data: arrayOf(snapshotRowSchema),
  }),
  json(p, rows) {
    const { m, result } = p;
    const cache = rows.snapshotRows;
    const body: BodyPart[] = [
      `{"market":"${m.market}","total":${result.total},"count":${result.rows.length},"limit":${p.limit},"offset":${p.offset},"sort":"${p.sort}","order":"${p.order}","data":[`,
    ];
    for (let n = 0; n < result.rows.length; n++) {
      if (n > 0) body.push(COMMA);
      body.push(cache.row(m, result.rows[n], p.set.columns, p.set.key));
    }
    body.push(']}');
    return body;
  },
  value: (p): ScreenValue => ({
    market: p.m.market,
    total: p.result.total,
    count: p.result.rows.length,
    limit: p.limit,
    offset: p.offset,
    sort: p.sort,
    order: p.order,
    data: Array.from(p.result.rows, (i) => snapshotRow(p.m, i, p.set.columns)),
  }),
  csv: (value: ScreenValue, p) => ({
    columns: p.set.columns,
    rows: value.data.map((row) => p.set.columns.map((c) => row[c])),
  }),
};

// ---- its FlatBuffers table (transport/schemas/mdq.fbs) ------------------------------------

const SCREEN = layout(['market', 'total', 'count', 'limit', 'offset', 'sort', 'order', 'fields', 'data']);

/** The screen answer's value (msgpack, FlatBuffers, Arrow and CSV all read this one type). */
interface ScreenValue extends PageValue {
  market: string;
  sort: string;
  order: string;
  data: Row[];
}

function screenTable(v: ScreenValue): Offset {
  const [market, sort, order, fields, data] = [
    text(v.market),
    text(v.sort),
    text(v.order),
    snapshotFields(v.data[0]),
    offsets(v.data.map(snapshot)),
  ];
  const at = SCREEN.at;
  builder.startObject(SCREEN.size);
  addOffset(at.market, market);
  addPage(at, v);
  addOffset(at.sort, sort);
  addOffset(at.order, order);
  addOffset(at.fields, fields);
  addOffset(at.data, data);
  return builder.endObject();
}
