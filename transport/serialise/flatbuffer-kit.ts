// The FlatBuffers writing kit every shape's table writer uses (transport/schemas/mdq.fbs): the
// reused builder, typed fields and vectors, the K-line columns and snapshot tables several shapes
// share, and a finished buffer. Each shape writes its own root table (`Shape.flatbuffer`).

import { fileURLToPath } from 'node:url';
import { Builder, type Offset } from 'flatbuffers';
import { KLINE_FIELDS, SNAPSHOT_COLUMNS } from '../../engine/columns.js';

export type { Offset };

/** The published schema (transport/schemas/mdq.fbs; this module runs from dist/transport/serialise/). */
export const FLATBUFFERS_SCHEMA_PATH = fileURLToPath(new URL('../../../transport/schemas/mdq.fbs', import.meta.url));

export type Row = Record<string, unknown>;

// ---- table layouts: slot numbers in the order mdq.fbs declares the fields -----------------

export interface Layout<N extends string> {
  readonly size: number;
  readonly at: Readonly<Record<N, number>>;
}

export function layout<N extends string>(fields: readonly N[]): Layout<N> {
  return { size: fields.length, at: Object.fromEntries(fields.map((name, slot) => [name, slot])) as Record<N, number> };
}

const KLINE_COLUMNS = layout(['date', ...KLINE_FIELDS, 'adj_factor']);
const SNAPSHOT = layout(SNAPSHOT_COLUMNS.map((c) => c.name));

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
export let builder = new Builder(INITIAL_BYTES);

/** A string, or 0 (the field stays absent: null) for anything else. '' is written, it is not null. */
export const text = (value: unknown): Offset => (typeof value === 'string' ? builder.createString(value) : 0);

/** A vector of strings; the strings must be written before the vector that points at them. */
export function texts(values: readonly unknown[]): Offset {
  return offsets(values.map(text));
}

/** A vector of tables (or strings) already written. Vectors are built back to front. */
export function offsets(items: readonly Offset[]): Offset {
  builder.startVector(4, items.length, 4);
  for (let i = items.length - 1; i >= 0; i--) builder.addOffset(items[i]);
  return builder.endVector();
}

/** A [double] of `count` values; null (or anything not a number) becomes NaN. */
export function doubles(count: number, valueAt: (i: number) => unknown): Offset {
  builder.startVector(8, count, 8);
  for (let i = count - 1; i >= 0; i--) {
    const value = valueAt(i);
    builder.addFloat64(typeof value === 'number' ? value : NaN);
  }
  return builder.endVector();
}

/** An [int32] of `count` values. */
export function int32s(count: number, valueAt: (i: number) => number): Offset {
  builder.startVector(4, count, 4);
  for (let i = count - 1; i >= 0; i--) builder.addInt32(valueAt(i));
  return builder.endVector();
}

/** A uint32 field (0 is the default, so 0 is not stored); throws outside 0…2^32-1 rather than wrap. */
export function addUint32(slot: number, value: unknown): void {
  if (!Number.isInteger(value) || (value as number) < 0 || (value as number) > 0xffffffff)
    throw new RangeError(`${String(value)} is not a uint32`);
  builder.addFieldInt32(slot, value as number, 0);
}

/** A uint64 field from a safe integer; for a `uint64 = null` field, null writes nothing (reads as null). */
export function addUint64(slot: number, value: unknown, optional = false): void {
  if (optional && (value === null || value === undefined)) return;
  if (!Number.isSafeInteger(value) || (value as number) < 0)
    throw new RangeError(`${String(value)} is not a non-negative safe integer`);
  // An optional scalar must be written even when 0, hence the null default; a plain uint64 defaults to 0.
  builder.addFieldInt64(slot, BigInt(value as number), optional ? null : 0n);
}

/** A `double = null` field: written when the value is a number (-0 included), absent otherwise. */
export function addOptionalDouble(slot: number, value: unknown): void {
  if (typeof value === 'number') builder.addFieldFloat64(slot, value, null);
}

/** A page's figures (`total` when the table has one): count, limit and total uint32, offset uint64. */
export function addPage(
  at: { readonly count: number; readonly limit: number; readonly offset: number; readonly total?: number },
  v: { count: number; limit: number; offset: number; total?: number },
): void {
  if (at.total !== undefined) addUint32(at.total, v.total);
  addUint32(at.count, v.count);
  addUint32(at.limit, v.limit);
  addUint64(at.offset, v.offset);
}

/** An offset field; 0 (nothing written) leaves it absent. */
export const addOffset = (slot: number, offset: Offset): void => builder.addFieldOffset(slot, offset, 0);

const DATE = /^\d{4}-\d{2}-\d{2}$/;

/** 'YYYY-MM-DD' as the integer YYYYMMDD (the K-line date column). */
function yyyymmdd(date: unknown): number {
  if (typeof date !== 'string' || !DATE.test(date))
    throw new Error(`K-line date ${JSON.stringify(date)} is not YYYY-MM-DD`);
  return Number(date.slice(0, 4) + date.slice(5, 7) + date.slice(8, 10));
}

// ---- K-lines --------------------------------------------------------------------------

/** Price and size fields listed in the response's `fields`: they get a vector, the others none. */
export const selectedKlineFields = (fields: readonly unknown[]): string[] =>
  KLINE_FIELDS.filter((f) => fields.includes(f));

/** Rows as columns: date and adj_factor always (every row has them), the selected fields, NaN for null. */
export function klineColumns(rows: readonly Row[], selected: readonly string[]): Offset {
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

// ---- snapshots (detail, detailBatch, screen) ------------------------------------------

/** One snapshot: every column the row holds (strings, then numbers); a null or unselected one stays absent. */
export function snapshot(row: Row): Offset {
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
export function snapshotFields(first: Row | undefined): Offset {
  return texts(first === undefined ? [] : SNAPSHOT_COLUMNS.filter((c) => c.name in first).map((c) => c.name));
}

// ---- a finished buffer -------------------------------------------------------------------

/**
 * `encode(value)` as a FlatBuffer whose root is the table it writes, as a view of the module's
 * builder: valid until the next call, which reuses the builder (no allocation per answer, so no
 * garbage for V8 to collect later). A RangeError for an integer its field cannot hold.
 */
export function finishedView<V>(encode: (value: V) => Offset, value: V): Uint8Array {
  builder.clear(); // also resets a build an earlier call abandoned by throwing
  builder.finish(encode(value));
  const bytes = builder.asUint8Array();
  if (builder.dataBuffer().capacity() > KEEP_BYTES) builder = new Builder(INITIAL_BYTES); // the view keeps the big one while it is held
  return bytes;
}
