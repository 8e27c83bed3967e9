// The detail answers: one symbol's latest snapshot, and several keyed by symbol.

import type { SnapshotView } from '../../engine/dataset/dataset.js';
import { arrayOf, int, mapOf, object, str } from '../schemas/common.js';
import { market, snapshotRow as snapshotRowSchema } from '../schemas/rows.js';
import type { BodyPart } from '../serialise/assemble.js';
import { snapshotRow } from '../serialise/rows.js';
import type { Shape } from './shape.js';
import {
  addOffset,
  addUint32,
  builder,
  layout,
  type Offset,
  offsets,
  type Row,
  snapshot,
  snapshotFields,
  text,
  texts,
} from '../serialise/flatbuffer-kit.js';

/** A column set and the key naming it in the rendered-row cache. */
export interface ColumnSet {
  columns: string[];
  key: string;
}

export interface DetailResult {
  m: SnapshotView;
  i: number;
  set: ColumnSet;
}

export interface DetailBatchResult {
  m: SnapshotView;
  /** Positions of the symbols that exist, in request order. */
  found: number[];
  missing: string[];
  set: ColumnSet;
}

type SnapshotValue = Record<string, unknown>;

export const detailShape: Shape<DetailResult> = {
  name: 'detail',
  table: 'Detail',
  flatbuffer: detailTable,
  schema: object({ market, symbol: str, count: int, data: snapshotRowSchema }),
  json({ m, i, set }, rows) {
    const head = `{"market":"${m.market}","symbol":"${m.symbols.codes[i]}","count":1,"data":`; // codes need no escaping
    return [head, rows.snapshotRows.row(m, i, set.columns, set.key), '}'];
  },
  value: ({ m, i, set }) => ({
    market: m.market,
    symbol: m.symbols.codes[i],
    count: 1,
    data: snapshotRow(m, i, set.columns),
  }),
  csv: (value: { data: SnapshotValue }, r) => ({
    columns: r.set.columns,
    rows: [r.set.columns.map((c) => value.data[c])],
  }),
};

export const detailBatchShape: Shape<DetailBatchResult> = {
  name: 'detailBatch',
  table: 'DetailBatch',
  flatbuffer: detailBatchTable,
  schema: object({ market, count: int, data: mapOf(snapshotRowSchema), missing: arrayOf(str) }, ['missing']),
  json({ m, found, missing, set }, rows) {
    const cache = rows.snapshotRows;
    const body: BodyPart[] = [`{"market":"${m.market}","count":${found.length},"data":{`];
    found.forEach((i, n) =>
      body.push(`${n > 0 ? ',' : ''}"${m.symbols.codes[i]}":`, cache.row(m, i, set.columns, set.key)),
    );
    body.push(missing.length > 0 ? `},"missing":${JSON.stringify(missing)}}` : '}}');
    return body;
  },
  value({ m, found, missing, set }) {
    const data: Record<string, unknown> = {};
    for (const i of found) data[m.symbols.codes[i]] = snapshotRow(m, i, set.columns);
    const value: Record<string, unknown> = { market: m.market, count: found.length, data };
    if (missing.length > 0) value.missing = missing;
    return value;
  },
  csv: (value: { data: Record<string, SnapshotValue> }, r) => ({
    columns: r.set.columns,
    rows: Object.values(value.data).map((row) => r.set.columns.map((c) => row[c])),
  }),
};

// ---- its FlatBuffers table (transport/schemas/mdq.fbs) ------------------------------------

const DETAIL = layout(['market', 'symbol', 'count', 'fields', 'data']);
const DETAIL_BATCH = layout(['market', 'count', 'fields', 'data', 'missing']);

interface DetailValue {
  market: string;
  symbol: string;
  count: number;
  data: Row;
}

interface DetailBatchValue {
  market: string;
  count: number;
  data: Record<string, Row>;
  missing?: string[];
}

function detailTable(v: DetailValue): Offset {
  const [market, symbol, fields, data] = [text(v.market), text(v.symbol), snapshotFields(v.data), snapshot(v.data)];
  builder.startObject(DETAIL.size);
  addOffset(DETAIL.at.market, market);
  addOffset(DETAIL.at.symbol, symbol);
  addUint32(DETAIL.at.count, v.count);
  addOffset(DETAIL.at.fields, fields);
  addOffset(DETAIL.at.data, data);
  return builder.endObject();
}

function detailBatchTable(v: DetailBatchValue): Offset {
  const rows = Object.values(v.data); // key order; each row carries its symbol (the key)
  const [market, fields, data] = [text(v.market), snapshotFields(rows[0]), offsets(rows.map(snapshot))];
  const missing = v.missing ? texts(v.missing) : 0;
  builder.startObject(DETAIL_BATCH.size);
  addOffset(DETAIL_BATCH.at.market, market);
  addUint32(DETAIL_BATCH.at.count, v.count);
  addOffset(DETAIL_BATCH.at.fields, fields);
  addOffset(DETAIL_BATCH.at.data, data);
  addOffset(DETAIL_BATCH.at.missing, missing);
  return builder.endObject();
}
