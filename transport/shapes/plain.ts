// Shapes whose engine result is already the answer's value: markets, symbols, macro, quota.

import { MACRO_INDICATORS } from '../../engine/columns.js';
import type { QuotaRecord } from '../guard/guard.js';
import {
  arrayOf,
  date,
  int,
  mapOf,
  nullableDate,
  nullableInt,
  nullableNum,
  nullableStr,
  object,
  str,
} from '../schemas/common.js';
import { market } from '../schemas/rows.js';
import { compileJson } from '../serialise/compile-json.js';
import { type CsvTable, type PageValue, rowsOf, type Shape } from './shape.js';
import type { Schema } from '../schemas/common.js';
import {
  addOffset,
  addPage,
  addUint32,
  addUint64,
  builder,
  doubles,
  layout,
  type Offset,
  offsets,
  text,
  texts,
} from '../serialise/flatbuffer-kit.js';

/** A shape rendered by its compiled schema; `csv` flattens the value's rows. */
function plainShape<V>(
  name: string,
  table: string,
  flatbuffer: (value: V) => Offset,
  schema: Schema,
  csv: ((value: V) => CsvTable) | null,
): Shape<V> {
  const toJson = compileJson(schema);
  return { name, schema, json: (value) => toJson(value), value: (value) => value, csv, table, flatbuffer };
}

/** The markets answer's value (JSON, msgpack and FlatBuffers all write this one type). */
export interface MarketsValue {
  count: number;
  data: MarketInfoValue[];
}

/** One market of the markets answer (a type, not an interface: `rowsOf` reads it as a record). */
export type MarketInfoValue = {
  market: string;
  symbols: number;
  rows: number;
  start_date: string | null;
  end_date: string | null;
};

export const marketsShape = plainShape<MarketsValue>(
  'markets',
  'Markets',
  marketsTable,
  object({
    count: int,
    data: arrayOf(object({ market, symbols: int, rows: int, start_date: nullableDate, end_date: nullableDate })),
  }),
  (v) => rowsOf(v.data, ['market', 'symbols', 'rows', 'start_date', 'end_date']),
);

/** The symbols answer's value. */
export interface SymbolsValue extends PageValue {
  market: string;
  data: SymbolInfoValue[];
}

/** One listed symbol (a type, as `MarketInfoValue`). */
export type SymbolInfoValue = {
  symbol: string;
  name: string | null;
};

export const symbolsShape = plainShape<SymbolsValue>(
  'symbols',
  'Symbols',
  symbolsTable,
  object({
    market,
    total: int,
    count: int,
    limit: int,
    offset: int,
    data: arrayOf(object({ symbol: str, name: nullableStr })),
  }),
  (v) => rowsOf(v.data, ['symbol', 'name']),
);

/** The macro answer's value. */
export interface MacroValue extends PageValue {
  data: MacroReleaseValue[];
}

/** One release of one indicator: its series keys and values (null: missing). */
export interface MacroReleaseValue {
  indicator: string;
  date: string;
  data: Record<string, number | null>;
}

/** Macro rows in CSV: indicator, date, then one column per series key of the page (first seen first). */
function macroCsv(v: MacroValue): CsvTable {
  const keys = [...new Set(v.data.flatMap((row) => Object.keys(row.data)))];
  return {
    columns: ['indicator', 'date', ...keys],
    rows: v.data.map((row) => [row.indicator, row.date, ...keys.map((k) => row.data[k])]),
  };
}

export const macroShape = plainShape<MacroValue>(
  'macro',
  'Macro',
  macroTable,
  object({
    count: int,
    total: int,
    limit: int,
    offset: int,
    data: arrayOf(
      object({ indicator: { type: 'string', enum: [...MACRO_INDICATORS] }, date, data: mapOf(nullableNum) }),
    ),
  }),
  macroCsv,
);

/** One record, no rows: CSV is not offered (406). */
export const quotaShape = plainShape<QuotaRecord>(
  'quota',
  'Quota',
  quotaTable,
  object({
    plan: str,
    org_name: str,
    daily_quota: nullableInt,
    used: int,
    remaining: nullableInt,
    requests_today: int,
    reset_at: { type: 'string', format: 'date-time' },
    export_quota: nullableInt,
    export_used: int,
    export_remaining: nullableInt,
  }),
  null,
);

// ---- its FlatBuffers table (transport/schemas/mdq.fbs) ------------------------------------

const MARKET_INFO = layout(['market', 'symbols', 'rows', 'start_date', 'end_date']);
const MARKETS = layout(['count', 'data']);
const SYMBOL_INFO = layout(['symbol', 'name']);
const SYMBOLS = layout(['market', 'total', 'count', 'limit', 'offset', 'data']);
const MACRO_ROW = layout(['indicator', 'date', 'keys', 'values']);
const MACRO = layout(['count', 'total', 'limit', 'offset', 'data']);
const QUOTA = layout([
  'plan',
  'org_name',
  'daily_quota',
  'used',
  'remaining',
  'requests_today',
  'reset_at',
  'export_quota',
  'export_used',
  'export_remaining',
]);

function marketInfoTable(m: MarketInfoValue): Offset {
  const [market, start, end] = [text(m.market), text(m.start_date), text(m.end_date)];
  builder.startObject(MARKET_INFO.size);
  addOffset(MARKET_INFO.at.market, market);
  addUint32(MARKET_INFO.at.symbols, m.symbols);
  addUint64(MARKET_INFO.at.rows, m.rows);
  addOffset(MARKET_INFO.at.start_date, start);
  addOffset(MARKET_INFO.at.end_date, end);
  return builder.endObject();
}

function marketsTable(v: MarketsValue): Offset {
  const data = offsets(v.data.map(marketInfoTable));
  builder.startObject(MARKETS.size);
  addUint32(MARKETS.at.count, v.count);
  addOffset(MARKETS.at.data, data);
  return builder.endObject();
}

function symbolInfoTable(s: SymbolInfoValue): Offset {
  const [symbol, name] = [text(s.symbol), text(s.name)];
  builder.startObject(SYMBOL_INFO.size);
  addOffset(SYMBOL_INFO.at.symbol, symbol);
  addOffset(SYMBOL_INFO.at.name, name);
  return builder.endObject();
}

function symbolsTable(v: SymbolsValue): Offset {
  const [market, data] = [text(v.market), offsets(v.data.map(symbolInfoTable))];
  const at = SYMBOLS.at;
  builder.startObject(SYMBOLS.size);
  addOffset(at.market, market);
  addPage(at, v);
  addOffset(at.data, data);
  return builder.endObject();
}

/** One release: the JSON `data` object as parallel keys and values (NaN for null), key order kept. */
function macroRowTable(row: MacroReleaseValue): Offset {
  const entries = Object.entries(row.data);
  const [indicator, date, keys] = [text(row.indicator), text(row.date), texts(entries.map(([key]) => key))];
  const values = doubles(entries.length, (i) => entries[i][1]);
  builder.startObject(MACRO_ROW.size);
  addOffset(MACRO_ROW.at.indicator, indicator);
  addOffset(MACRO_ROW.at.date, date);
  addOffset(MACRO_ROW.at.keys, keys);
  addOffset(MACRO_ROW.at.values, values);
  return builder.endObject();
}

function macroTable(v: MacroValue): Offset {
  const data = offsets(v.data.map(macroRowTable));
  builder.startObject(MACRO.size);
  addPage(MACRO.at, v);
  addOffset(MACRO.at.data, data);
  return builder.endObject();
}

function quotaTable(v: QuotaRecord): Offset {
  const [plan, org, reset] = [text(v.plan), text(v.org_name), text(v.reset_at)];
  const at = QUOTA.at;
  builder.startObject(QUOTA.size);
  addOffset(at.plan, plan);
  addOffset(at.org_name, org);
  addUint64(at.daily_quota, v.daily_quota, true);
  addUint64(at.used, v.used);
  addUint64(at.remaining, v.remaining, true);
  addUint64(at.requests_today, v.requests_today);
  addOffset(at.reset_at, reset);
  addUint64(at.export_quota, v.export_quota, true);
  addUint64(at.export_used, v.export_used);
  addUint64(at.export_remaining, v.export_remaining, true);
  return builder.endObject();
}
