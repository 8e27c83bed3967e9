// Renders a response value (the JSON shape) as a FlatBuffer of transport/schemas/mdq.fbs, one root table per shape.

import { fileURLToPath } from 'node:url';
import { Builder, type Offset } from 'flatbuffers';
import { KLINE_FIELDS, SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import type {
  MacroReleaseValue,
  MacroValue,
  MarketInfoValue,
  MarketsValue,
  SymbolInfoValue,
  SymbolsValue,
} from '../shapes/plain.js';
import type { ShapeName } from '../shapes/shape.js';
import type { ActionsValue, ActionValue } from '../shapes/actions.js';
import type { CalendarValue } from '../shapes/calendar.js';
import type { MacroIndicatorsValue, MacroIndicatorValue, MacroKeyValue } from '../shapes/macro-indicators.js';

/** The shapes answered as FlatBuffers: every data shape (problem and health bodies stay JSON). */
export type FlatShapeName = ShapeName;

/** The published schema (transport/schemas/mdq.fbs; this module runs from dist/transport/serialise/). */
export const FLATBUFFERS_SCHEMA_PATH = fileURLToPath(new URL('../../../transport/schemas/mdq.fbs', import.meta.url));

type Row = Record<string, unknown>;

// ---- table layouts: slot numbers in the order mdq.fbs declares the fields -----------------

interface Layout<N extends string> {
  readonly size: number;
  readonly at: Readonly<Record<N, number>>;
}

function layout<N extends string>(fields: readonly N[]): Layout<N> {
  return { size: fields.length, at: Object.fromEntries(fields.map((name, slot) => [name, slot])) as Record<N, number> };
}

const KLINE_COLUMNS = layout(['date', ...KLINE_FIELDS, 'adj_factor']);
const KLINES = layout(['market', 'symbol', 'count', 'total', 'offset', 'limit', 'fields', 'columns']);
const SYMBOL_KLINES = layout(['symbol', 'columns']);
const CROSS_SECTION = layout(['market', 'date', 'total', 'count', 'limit', 'offset', 'fields', 'symbols', 'columns']);
const KLINES_BATCH = layout(['market', 'count', 'limit', 'offset', 'fields', 'data', 'missing']);
const MARKET_INFO = layout(['market', 'symbols', 'rows', 'start_date', 'end_date']);
const MARKETS = layout(['count', 'data']);
const SYMBOL_INFO = layout(['symbol', 'name']);
const SYMBOLS = layout(['market', 'total', 'count', 'limit', 'offset', 'data']);
const CALENDAR = layout(['market', 'total', 'count', 'limit', 'offset', 'dates']);
const ACTION = layout(['date', 'adj_factor', 'prev_adj_factor', 'ratio']);
const ACTIONS = layout(['market', 'symbol', 'count', 'data']);
const SNAPSHOT = layout(SNAPSHOT_COLUMNS.map((c) => c.name));
const DETAIL = layout(['market', 'symbol', 'count', 'fields', 'data']);
const DETAIL_BATCH = layout(['market', 'count', 'fields', 'data', 'missing']);
const SCREEN = layout(['market', 'total', 'count', 'limit', 'offset', 'sort', 'order', 'fields', 'data']);
const MACRO_ROW = layout(['indicator', 'date', 'keys', 'values']);
const MACRO = layout(['count', 'total', 'limit', 'offset', 'data']);
const MACRO_KEY = layout(['key', 'unit']);
const MACRO_INDICATOR = layout(['indicator', 'frequency', 'start', 'end', 'keys']);
const MACRO_INDICATORS = layout(['count', 'data']);
const QUOTA = layout(['plan', 'org_name', 'daily_quota', 'used', 'remaining', 'requests_today', 'reset_at']);

const SNAPSHOT_STRINGS = SNAPSHOT_COLUMNS.filter((c) => c.kind === 'string').map((c) => ({
  name: c.name,
  slot: SNAPSHOT.at[c.name],
}));
const SNAPSHOT_NUMBERS = SNAPSHOT_COLUMNS.filter((c) => c.kind === 'number').map((c) => ({
  name: c.name,
  slot: SNAPSHOT.at[c.name],
}));

// ---- the builder and its primitives ----------------------------------------------------

const INITIAL_BYTES = 64 * 1024;
/** A builder grown past this by a big response is dropped rather than kept for the process's life. */
const KEEP_BYTES = 8 * 1024 * 1024;

/** Reused between calls (clear() keeps its memory); every result is copied out of it. */
let builder = new Builder(INITIAL_BYTES);

/** A string, or 0 (the field stays absent: null) for anything else. '' is written, it is not null. */
const text = (value: unknown): Offset => (typeof value === 'string' ? builder.createString(value) : 0);

/** A vector of strings; the strings must be written before the vector that points at them. */
function texts(values: readonly unknown[]): Offset {
  return offsets(values.map(text));
}

/** A vector of tables (or strings) already written. Vectors are built back to front. */
function offsets(items: readonly Offset[]): Offset {
  builder.startVector(4, items.length, 4);
  for (let i = items.length - 1; i >= 0; i--) builder.addOffset(items[i]);
  return builder.endVector();
}

/** A [double] of `count` values; null (or anything not a number) becomes NaN. */
function doubles(count: number, valueAt: (i: number) => unknown): Offset {
  builder.startVector(8, count, 8);
  for (let i = count - 1; i >= 0; i--) {
    const value = valueAt(i);
    builder.addFloat64(typeof value === 'number' ? value : NaN);
  }
  return builder.endVector();
}

/** An [int32] of `count` values. */
function int32s(count: number, valueAt: (i: number) => number): Offset {
  builder.startVector(4, count, 4);
  for (let i = count - 1; i >= 0; i--) builder.addInt32(valueAt(i));
  return builder.endVector();
}

/** A uint32 field (0 is the default, so 0 is not stored); throws outside 0…2^32-1 rather than wrap. */
function addUint32(slot: number, value: unknown): void {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 0xffffffff)
    throw new RangeError(`${String(value)} is not a uint32`);
  builder.addFieldInt32(slot, value as number, 0);
}

/** A uint64 field from a safe integer; for a `uint64 = null` field, null writes nothing (reads as null). */
function addUint64(slot: number, value: unknown, optional = false): void {
  if (optional && (value === null || value === undefined)) return;
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw new RangeError(`${String(value)} is not a non-negative safe integer`);
  // An optional scalar must be written even when 0, hence the null default; a plain uint64 defaults to 0.
  builder.addFieldInt64(slot, BigInt(value as number), optional ? null : 0n);
}

/** A `double = null` field: written when the value is a number (-0 included), absent otherwise. */
function addOptionalDouble(slot: number, value: unknown): void {
  if (typeof value === 'number') builder.addFieldFloat64(slot, value, null);
}

/** An offset field; 0 (nothing written) leaves it absent. */
const addOffset = (slot: number, offset: Offset): void => builder.addFieldOffset(slot, offset, 0);

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** 'YYYY-MM-DD' as the integer YYYYMMDD (the K-line date column). */
function yyyymmdd(date: unknown): number {
  if (typeof date !== 'string' || !DATE.test(date))
    throw new Error(`K-line date ${JSON.stringify(date)} is not YYYY-MM-DD`);
  return Number(date.slice(0, 4) + date.slice(5, 7) + date.slice(8, 10));
}

// ---- K-lines --------------------------------------------------------------------------

/** Price and size fields listed in the response's `fields`: they get a vector, the others none. */
const selectedKlineFields = (fields: readonly unknown[]): string[] => KLINE_FIELDS.filter((f) => fields.includes(f));

/** Rows as columns: date and adj_factor always (every row has them), the selected fields, NaN for null. */
function klineColumns(rows: readonly Row[], selected: readonly string[]): Offset {
  const n = rows.length;
  const date = int32s(n, (i) => yyyymmdd(rows[i].date));
  const columns = selected.map((field) => doubles(n, (i) => rows[i][field]));
  const adjFactor = doubles(n, (i) => rows[i].adj_factor);
  builder.startObject(KLINE_COLUMNS.size);
  addOffset(KLINE_COLUMNS.at.date, date);
  selected.forEach((field, k) => addOffset(KLINE_COLUMNS.at[field as keyof typeof KLINE_COLUMNS.at], columns[k]));
  addOffset(KLINE_COLUMNS.at.adj_factor, adjFactor);
  return builder.endObject();
}

interface KlinesValue {
  market: string;
  symbol: string;
  count: number;
  total: number;
  offset: number;
  limit: number;
  fields: string[];
  data: Row[];
}

function klines(v: KlinesValue): Offset {
  const [market, symbol, fields] = [text(v.market), text(v.symbol), texts(v.fields)];
  const columns = klineColumns(v.data, selectedKlineFields(v.fields));
  const at = KLINES.at;
  builder.startObject(KLINES.size);
  addOffset(at.market, market);
  addOffset(at.symbol, symbol);
  addUint32(at.count, v.count);
  addUint32(at.total, v.total);
  addUint64(at.offset, v.offset);
  addUint32(at.limit, v.limit);
  addOffset(at.fields, fields);
  addOffset(at.columns, columns);
  return builder.endObject();
}

interface KlinesBatchValue {
  market: string;
  count: number;
  limit: number;
  offset: number;
  fields: string[];
  data: Record<string, Row[]>;
  missing?: string[];
}

function symbolKlines(symbol: string, rows: readonly Row[], selected: readonly string[]): Offset {
  const [name, columns] = [text(symbol), klineColumns(rows, selected)];
  builder.startObject(SYMBOL_KLINES.size);
  addOffset(SYMBOL_KLINES.at.symbol, name);
  addOffset(SYMBOL_KLINES.at.columns, columns);
  return builder.endObject();
}

function klinesBatch(v: KlinesBatchValue): Offset {
  const selected = selectedKlineFields(v.fields);
  const [market, fields] = [text(v.market), texts(v.fields)];
  const data = offsets(Object.entries(v.data).map(([symbol, rows]) => symbolKlines(symbol, rows, selected)));
  const missing = v.missing ? texts(v.missing) : 0;
  const at = KLINES_BATCH.at;
  builder.startObject(KLINES_BATCH.size);
  addOffset(at.market, market);
  addUint32(at.count, v.count);
  addUint32(at.limit, v.limit);
  addUint64(at.offset, v.offset);
  addOffset(at.fields, fields);
  addOffset(at.data, data);
  addOffset(at.missing, missing);
  return builder.endObject();
}

interface CrossSectionValue {
  market: string;
  date: string;
  total: number;
  count: number;
  limit: number;
  offset: number;
  fields: string[];
  data: Row[];
}

function crossSection(v: CrossSectionValue): Offset {
  const [market, day, fields] = [text(v.market), text(v.date), texts(v.fields)];
  const symbols = texts(v.data.map((row) => row.symbol));
  const columns = klineColumns(v.data, selectedKlineFields(v.fields));
  const at = CROSS_SECTION.at;
  builder.startObject(CROSS_SECTION.size);
  addOffset(at.market, market);
  addOffset(at.date, day);
  addUint32(at.total, v.total);
  addUint32(at.count, v.count);
  addUint32(at.limit, v.limit);
  addUint64(at.offset, v.offset);
  addOffset(at.fields, fields);
  addOffset(at.symbols, symbols);
  addOffset(at.columns, columns);
  return builder.endObject();
}

// ---- snapshots (detail, detailBatch, screen) ------------------------------------------

/** One snapshot: every column the row holds (strings, then numbers); a null or unselected one stays absent. */
function snapshot(row: Row): Offset {
  const strings = SNAPSHOT_STRINGS.map((c) => text(row[c.name]));
  builder.startObject(SNAPSHOT.size);
  SNAPSHOT_STRINGS.forEach((c, k) => addOffset(c.slot, strings[k]));
  for (const c of SNAPSHOT_NUMBERS) addOptionalDouble(c.slot, row[c.name]);
  return builder.endObject();
}

/**
 * The selected columns: the keys of the first row in column-table order (the order the
 * JSON is written in). A route selects one column set for all rows of a response.
 */
function snapshotFields(first: Row | undefined): Offset {
  return texts(first === undefined ? [] : SNAPSHOT_COLUMNS.filter((c) => c.name in first).map((c) => c.name));
}

interface DetailValue {
  market: string;
  symbol: string;
  count: number;
  data: Row;
}

function detail(v: DetailValue): Offset {
  const [market, symbol, fields, data] = [text(v.market), text(v.symbol), snapshotFields(v.data), snapshot(v.data)];
  builder.startObject(DETAIL.size);
  addOffset(DETAIL.at.market, market);
  addOffset(DETAIL.at.symbol, symbol);
  addUint32(DETAIL.at.count, v.count);
  addOffset(DETAIL.at.fields, fields);
  addOffset(DETAIL.at.data, data);
  return builder.endObject();
}

interface DetailBatchValue {
  market: string;
  count: number;
  data: Record<string, Row>;
  missing?: string[];
}

function detailBatch(v: DetailBatchValue): Offset {
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

interface ScreenValue {
  market: string;
  total: number;
  count: number;
  limit: number;
  offset: number;
  sort: string;
  order: string;
  data: Row[];
}

function screen(v: ScreenValue): Offset {
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
  addUint32(at.total, v.total);
  addUint32(at.count, v.count);
  addUint32(at.limit, v.limit);
  addUint64(at.offset, v.offset);
  addOffset(at.sort, sort);
  addOffset(at.order, order);
  addOffset(at.fields, fields);
  addOffset(at.data, data);
  return builder.endObject();
}

// ---- listings, calendar, actions, macro, quota ---------------------------------------

function marketInfo(m: MarketInfoValue): Offset {
  const [market, start, end] = [text(m.market), text(m.start_date), text(m.end_date)];
  builder.startObject(MARKET_INFO.size);
  addOffset(MARKET_INFO.at.market, market);
  addUint32(MARKET_INFO.at.symbols, m.symbols);
  addUint64(MARKET_INFO.at.rows, m.rows);
  addOffset(MARKET_INFO.at.start_date, start);
  addOffset(MARKET_INFO.at.end_date, end);
  return builder.endObject();
}

function markets(v: MarketsValue): Offset {
  const data = offsets(v.data.map(marketInfo));
  builder.startObject(MARKETS.size);
  addUint32(MARKETS.at.count, v.count);
  addOffset(MARKETS.at.data, data);
  return builder.endObject();
}

function symbolInfo(s: SymbolInfoValue): Offset {
  const [symbol, name] = [text(s.symbol), text(s.name)];
  builder.startObject(SYMBOL_INFO.size);
  addOffset(SYMBOL_INFO.at.symbol, symbol);
  addOffset(SYMBOL_INFO.at.name, name);
  return builder.endObject();
}

function symbols(v: SymbolsValue): Offset {
  const [market, data] = [text(v.market), offsets(v.data.map(symbolInfo))];
  const at = SYMBOLS.at;
  builder.startObject(SYMBOLS.size);
  addOffset(at.market, market);
  addUint32(at.total, v.total);
  addUint32(at.count, v.count);
  addUint32(at.limit, v.limit);
  addUint64(at.offset, v.offset);
  addOffset(at.data, data);
  return builder.endObject();
}

/** The calendar's rows as one vector of their dates. */
function calendar(v: CalendarValue): Offset {
  const [market, dates] = [text(v.market), texts(v.data.map((d) => d.date))];
  const at = CALENDAR.at;
  builder.startObject(CALENDAR.size);
  addOffset(at.market, market);
  addUint32(at.total, v.total);
  addUint32(at.count, v.count);
  addUint32(at.limit, v.limit);
  addUint64(at.offset, v.offset);
  addOffset(at.dates, dates);
  return builder.endObject();
}

function action(a: ActionValue): Offset {
  const date = text(a.date);
  builder.startObject(ACTION.size);
  addOffset(ACTION.at.date, date);
  // A null default writes the value whatever it is: the JSON row always has all three.
  builder.addFieldFloat64(ACTION.at.adj_factor, a.adj_factor, null);
  builder.addFieldFloat64(ACTION.at.prev_adj_factor, a.prev_adj_factor, null);
  builder.addFieldFloat64(ACTION.at.ratio, a.ratio, null);
  return builder.endObject();
}

function actions(v: ActionsValue): Offset {
  const [market, symbol, data] = [text(v.market), text(v.symbol), offsets(v.data.map(action))];
  builder.startObject(ACTIONS.size);
  addOffset(ACTIONS.at.market, market);
  addOffset(ACTIONS.at.symbol, symbol);
  addUint32(ACTIONS.at.count, v.count);
  addOffset(ACTIONS.at.data, data);
  return builder.endObject();
}

/** One release: the JSON `data` object as parallel keys and values (NaN for null), key order kept. */
function macroRow(row: MacroReleaseValue): Offset {
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

function macro(v: MacroValue): Offset {
  const data = offsets(v.data.map(macroRow));
  builder.startObject(MACRO.size);
  addUint32(MACRO.at.count, v.count);
  addUint32(MACRO.at.total, v.total);
  addUint32(MACRO.at.limit, v.limit);
  addUint64(MACRO.at.offset, v.offset);
  addOffset(MACRO.at.data, data);
  return builder.endObject();
}

function macroKey(k: MacroKeyValue): Offset {
  const [key, unit] = [text(k.key), text(k.unit)];
  builder.startObject(MACRO_KEY.size);
  addOffset(MACRO_KEY.at.key, key);
  addOffset(MACRO_KEY.at.unit, unit);
  return builder.endObject();
}

function macroIndicator(d: MacroIndicatorValue): Offset {
  const [indicator, frequency, start, end] = [text(d.indicator), text(d.frequency), text(d.start), text(d.end)];
  const keys = offsets(d.keys.map(macroKey));
  const at = MACRO_INDICATOR.at;
  builder.startObject(MACRO_INDICATOR.size);
  addOffset(at.indicator, indicator);
  addOffset(at.frequency, frequency);
  addOffset(at.start, start);
  addOffset(at.end, end);
  addOffset(at.keys, keys);
  return builder.endObject();
}

function macroIndicators(v: MacroIndicatorsValue): Offset {
  const data = offsets(v.data.map(macroIndicator));
  builder.startObject(MACRO_INDICATORS.size);
  addUint32(MACRO_INDICATORS.at.count, v.count);
  addOffset(MACRO_INDICATORS.at.data, data);
  return builder.endObject();
}

interface QuotaValue {
  plan: string;
  org_name: string;
  daily_quota: number | null;
  used: number;
  remaining: number | null;
  requests_today: number;
  reset_at: string;
}

function quota(v: QuotaValue): Offset {
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
  return builder.endObject();
}

// ---- entry point ----------------------------------------------------------------------

// `any`: each encoder reads its own shape; the value was built for that shape's schema.
// biome-ignore lint/suspicious/noExplicitAny: each encoder takes its own shape's value; the table is keyed by the shape
const ENCODERS: Record<FlatShapeName, (value: any) => Offset> = {
  markets,
  symbols,
  calendar,
  actions,
  klines,
  klinesBatch,
  crossSection,
  detail,
  detailBatch,
  screen,
  macro,
  macroIndicators,
  quota,
};

/** The shape names flatbuffersOf encodes, in schema order. */
export const FLATBUFFER_SHAPES: readonly FlatShapeName[] = Object.keys(ENCODERS) as FlatShapeName[];

/**
 * The value of a response shape (what the JSON serialiser receives) as a FlatBuffer whose
 * root is that shape's table in mdq.fbs, as a view of the module's builder: valid until the
 * next call of this function or flatbuffersOf, which reuse the builder (no allocation per
 * answer, so no garbage for V8 to collect later). Throws an Error for a shape without a
 * table (problem, health), a RangeError for an integer its field cannot hold.
 */
export function flatbuffersView(shape: FlatShapeName, value: unknown): Uint8Array {
  const encode = Object.hasOwn(ENCODERS, shape) ? ENCODERS[shape] : undefined;
  if (encode === undefined) throw new Error(`the '${String(shape)}' shape has no FlatBuffers encoding`);
  builder.clear(); // also resets a build an earlier call abandoned by throwing
  builder.finish(encode(value));
  const bytes = builder.asUint8Array();
  if (builder.dataBuffer().capacity() > KEEP_BYTES) builder = new Builder(INITIAL_BYTES); // the view keeps the big one while it is held
  return bytes;
}

/** flatbuffersView as a fresh copy the caller owns. */
export const flatbuffersOf = (shape: FlatShapeName, value: unknown): Uint8Array =>
  flatbuffersView(shape, value).slice();
