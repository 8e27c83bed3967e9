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
import { rowsOf, type CsvTable, type Shape, type ShapeName } from './shape.js';
import type { Schema } from '../schemas/common.js';

/** A shape rendered by its compiled schema; `csv` flattens the value's rows. */
function plainShape<V>(name: ShapeName, schema: Schema, csv: ((value: V) => CsvTable) | null): Shape<V> {
  const toJson = compileJson(schema);
  return { name, schema, json: (value) => toJson(value), value: (value) => value, csv };
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
  object({
    count: int,
    data: arrayOf(object({ market, symbols: int, rows: int, start_date: nullableDate, end_date: nullableDate })),
  }),
  (v) => rowsOf(v.data, ['market', 'symbols', 'rows', 'start_date', 'end_date']),
);

/** The symbols answer's value. */
export interface SymbolsValue {
  market: string;
  total: number;
  count: number;
  limit: number;
  offset: number;
  data: SymbolInfoValue[];
}

/** One listed symbol (a type, as `MarketInfoValue`). */
export type SymbolInfoValue = {
  symbol: string;
  name: string | null;
};

export const symbolsShape = plainShape<SymbolsValue>(
  'symbols',
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
export interface MacroValue {
  count: number;
  total: number;
  limit: number;
  offset: number;
  data: MacroReleaseValue[];
}

/** One release of one indicator: its series keys and values (null: missing). */
export interface MacroReleaseValue {
  indicator: string;
  date: string;
  data: Record<string, number | null>;
}

/** Macro rows in CSV: indicator, date, then one column per series key of the page (first seen first). */
function macroTable(v: MacroValue): CsvTable {
  const keys = [...new Set(v.data.flatMap((row) => Object.keys(row.data)))];
  return {
    columns: ['indicator', 'date', ...keys],
    rows: v.data.map((row) => [row.indicator, row.date, ...keys.map((k) => row.data[k])]),
  };
}

export const macroShape = plainShape<MacroValue>(
  'macro',
  object({
    count: int,
    total: int,
    limit: int,
    offset: int,
    data: arrayOf(
      object({ indicator: { type: 'string', enum: [...MACRO_INDICATORS] }, date, data: mapOf(nullableNum) }),
    ),
  }),
  macroTable,
);

/** One record, no rows: CSV is not offered (406). */
export const quotaShape = plainShape<QuotaRecord>(
  'quota',
  object({
    plan: str,
    org_name: str,
    daily_quota: nullableInt,
    used: int,
    remaining: nullableInt,
    requests_today: int,
    reset_at: { type: 'string', format: 'date-time' },
  }),
  null,
);
