// The adjustment-events answer: one symbol's adj_factor changes; schema, JSON, plain value, CSV rows.

import { dateText } from '../../engine/calendar/date-text.js';
import type { MarketData } from '../../engine/dataset/dataset.js';
import { round6 } from '../../engine/kernels/round.js';
import { arrayOf, date, int, num, object, str } from '../schemas/common.js';
import { market } from '../schemas/rows.js';
import { compileJson } from '../serialise/compile-json.js';
import { rowsOf, type Shape } from './shape.js';
import { addOffset, addUint32, builder, layout, type Offset, offsets, text } from '../serialise/flatbuffer-kit.js';

/** One symbol's events as the engine found them. */
export interface ActionsResult {
  m: MarketData;
  /** The symbol's position in the market. */
  i: number;
  /** Rows of the market's K-line columns whose adj_factor differs from the row before, ascending. */
  rows: Uint32Array;
}

/** The actions answer's value (JSON, msgpack and FlatBuffers all write this one type). */
export interface ActionsValue {
  market: string;
  symbol: string;
  count: number;
  data: ActionValue[];
}

/** One adjustment event (a type, not an interface: `rowsOf` reads it as a record). */
export type ActionValue = {
  date: string;
  adj_factor: number;
  prev_adj_factor: number;
  ratio: number;
};

export const ACTION_COLUMNS = ['date', 'adj_factor', 'prev_adj_factor', 'ratio'] as const;

const schema = object({
  market,
  symbol: str,
  count: int,
  data: arrayOf(
    object({
      date,
      adj_factor: { ...num, description: "The row's adj_factor, as stored." },
      prev_adj_factor: { ...num, description: "The symbol's adj_factor on its trading day before." },
      ratio: { ...num, description: 'adj_factor ÷ prev_adj_factor, rounded half away from zero to 6 decimals.' },
    }),
  ),
});
const toJson = compileJson(schema);

function actionsValue(r: ActionsResult): ActionsValue {
  const k = r.m.klines;
  const data = Array.from(r.rows, (row) => ({
    date: dateText(k.date[row]),
    adj_factor: k.adj_factor[row],
    prev_adj_factor: k.adj_factor[row - 1],
    ratio: round6(k.adj_factor[row] / k.adj_factor[row - 1]),
  }));
  return { market: r.m.market, symbol: r.m.symbols.codes[r.i], count: data.length, data };
}

export const actionsShape: Shape<ActionsResult> = {
  name: 'actions',
  table: 'Actions',
  flatbuffer: actionsTable,
  schema,
  json: (r) => toJson(actionsValue(r)),
  value: actionsValue,
  csv: (v: ActionsValue) => rowsOf(v.data, ACTION_COLUMNS),
};

// ---- its FlatBuffers table (transport/schemas/mdq.fbs) ------------------------------------

const ACTION = layout(['date', 'adj_factor', 'prev_adj_factor', 'ratio']);
const ACTIONS = layout(['market', 'symbol', 'count', 'data']);

function actionTable(a: ActionValue): Offset {
  const date = text(a.date);
  builder.startObject(ACTION.size);
  addOffset(ACTION.at.date, date);
  // A null default writes the value whatever it is: the JSON row always has all three.
  builder.addFieldFloat64(ACTION.at.adj_factor, a.adj_factor, null);
  builder.addFieldFloat64(ACTION.at.prev_adj_factor, a.prev_adj_factor, null);
  builder.addFieldFloat64(ACTION.at.ratio, a.ratio, null);
  return builder.endObject();
}

function actionsTable(v: ActionsValue): Offset {
  const [market, symbol, data] = [text(v.market), text(v.symbol), offsets(v.data.map(actionTable))];
  builder.startObject(ACTIONS.size);
  addOffset(ACTIONS.at.market, market);
  addOffset(ACTIONS.at.symbol, symbol);
  addUint32(ACTIONS.at.count, v.count);
  addOffset(ACTIONS.at.data, data);
  return builder.endObject();
}
