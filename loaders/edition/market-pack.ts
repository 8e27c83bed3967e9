// One market's columns as one run of bytes: packed when stored, viewed in place when opened.
//
// A part stores its market as a single LMDB value: the K-line columns, the fundamentals and the
// snapshot table computed when it was stored, each array at an 8-byte aligned offset. One value
// of 16 MiB or more is answered by lmdb-js as a view of the memory map, so every column of a
// large market is read in place by every thread; a small market's value is copied once per
// thread (a few MB at most).

import { NUMERIC_SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import type { FundamentalColumns, KlineColumns } from '../../engine/dataset/kline-columns.js';
import { KLINE_VALUE_COLUMNS } from '../../engine/dataset/kline-columns.js';
import type { SnapshotTable } from '../../engine/kernels/derive-snapshot.js';

type ArrayKind = 'i32' | 'u32' | 'f64';
type Typed = Int32Array | Uint32Array | Float64Array;

/** Where each array of a pack lies: name → [byte offset, element count, kind]. */
export type PackIndex = Record<string, [offset: number, length: number, kind: ArrayKind]>;

/** A market's arrays as the Dataset holds them. */
export interface MarketArrays {
  klines: KlineColumns;
  fundamentals: FundamentalColumns;
  snapshots: SnapshotTable;
  /** Its trading days, computed when stored; null from a part stored before they were. */
  tradingDays: Int32Array | null;
}

const KIND_OF = (a: Typed): ArrayKind => (a instanceof Float64Array ? 'f64' : a instanceof Uint32Array ? 'u32' : 'i32');
const ALIGN = 8;

/** Every array of `m` under its pack name, in pack order. */
function arraysOf(m: MarketArrays): [string, Typed][] {
  const out: [string, Typed][] = [
    ['k.offsets', m.klines.offsets],
    ['k.date', m.klines.date],
    ...KLINE_VALUE_COLUMNS.map((name): [string, Typed] => [`k.${name}`, m.klines[name]]),
    ['f.offsets', m.fundamentals.offsets],
    ['f.date', m.fundamentals.date],
    ...Object.entries(m.fundamentals.columns).map(([name, values]): [string, Typed] => [`f.${name}`, values]),
    ['s.date', m.snapshots.date],
  ];
  if (m.tradingDays !== null) out.push(['k.days', m.tradingDays]);
  for (const name of NUMERIC_SNAPSHOT_COLUMNS) {
    out.push(
      [`s.${name}`, m.snapshots.values[name]],
      [`s.asc.${name}`, m.snapshots.ascending[name]],
      [`s.desc.${name}`, m.snapshots.descending[name]],
    );
  }
  return out;
}

/** The sizes a market's pack is laid out from: what `arraysOf` would list, by length. */
export interface PackShape {
  symbols: number;
  rows: number;
  fundamentalRows: number;
  fundamentalColumns: readonly string[];
  /** Trading days (stored with the columns). */
  days: number;
}

/** Each array's place in a pack of `entries` (name, element count, kind), in order; and the pack's size. */
function layout(entries: [string, number, ArrayKind][]): { index: PackIndex; size: number } {
  const index: PackIndex = {};
  let size = 0;
  for (const [name, length, kind] of entries) {
    index[name] = [size, length, kind];
    size += Math.ceil((length * (kind === 'f64' ? 8 : 4)) / ALIGN) * ALIGN;
  }
  return { index, size };
}

/** The layout of a pack of `shape`: the same as `packMarket` gives arrays of those sizes. */
export function packLayout(shape: PackShape): { index: PackIndex; size: number } {
  const entries: [string, number, ArrayKind][] = [
    ['k.offsets', shape.symbols + 1, 'i32'],
    ['k.date', shape.rows, 'i32'],
    ...KLINE_VALUE_COLUMNS.map((name): [string, number, ArrayKind] => [`k.${name}`, shape.rows, 'f64']),
    ['f.offsets', shape.symbols + 1, 'i32'],
    ['f.date', shape.fundamentalRows, 'i32'],
    ...shape.fundamentalColumns.map((name): [string, number, ArrayKind] => [`f.${name}`, shape.fundamentalRows, 'f64']),
    ['s.date', shape.symbols, 'i32'],
    ['k.days', shape.days, 'i32'],
  ];
  for (const name of NUMERIC_SNAPSHOT_COLUMNS)
    entries.push(
      [`s.${name}`, shape.symbols, 'f64'],
      [`s.asc.${name}`, shape.symbols, 'u32'],
      [`s.desc.${name}`, shape.symbols, 'u32'],
    );
  return layout(entries);
}

/** Where each array of `m` lies in its pack, and the pack's size. */
export function packIndexOf(m: MarketArrays): { index: PackIndex; size: number } {
  return layout(arraysOf(m).map(([name, a]) => [name, a.length, KIND_OF(a)]));
}

/** `m` packed into one Buffer (not shared memory: lmdb-js writes a Buffer over a SharedArrayBuffer wrongly), and its index. */
export function packMarket(m: MarketArrays): { bytes: Buffer; index: PackIndex } {
  const { index, size } = packIndexOf(m);
  const bytes = Buffer.alloc(size);
  fillPack(bytes, index, m);
  return { bytes, index };
}

/**
 * Copies into a pack the arrays of `m` that are not views of it already (a pack a merge wrote its
 * K-lines into, `packLayout`'s: the rest goes in here).
 */
export function fillPack(bytes: Buffer, index: PackIndex, m: MarketArrays): void {
  for (const [name, a] of arraysOf(m)) {
    const [offset] = index[name];
    if (a.buffer === bytes.buffer && a.byteOffset === bytes.byteOffset + offset) continue; // written in place
    bytes.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), offset);
  }
}

/**
 * The market's arrays as views of `buffer` from `base` (a view of the memory map, or a copy).
 * Their lifetime is the buffer's: a view of the map must not be read once its environment is
 * closed (a closed map is a crash, not an exception).
 */
export function unpackMarket(
  buffer: ArrayBufferLike,
  base: number,
  index: PackIndex,
  fundamentalColumns: readonly string[],
  snapshotSize: number,
): MarketArrays {
  const view = (name: string): Typed => {
    const entry = index[name];
    if (entry === undefined) throw new Error(`stored market is damaged: no array ${name}`);
    const [offset, length, kind] = entry;
    const at = base + offset;
    return kind === 'f64'
      ? new Float64Array(buffer, at, length)
      : kind === 'u32'
        ? new Uint32Array(buffer, at, length)
        : new Int32Array(buffer, at, length);
  };
  const klines = { offsets: view('k.offsets'), date: view('k.date') } as KlineColumns;
  for (const name of KLINE_VALUE_COLUMNS) klines[name] = view(`k.${name}`) as Float64Array;
  const columns: Record<string, Float64Array> = {};
  for (const name of fundamentalColumns) columns[name] = view(`f.${name}`) as Float64Array;
  const fundamentals: FundamentalColumns = {
    offsets: view('f.offsets') as Int32Array,
    date: view('f.date') as Int32Array,
    columns,
  };
  const values: Record<string, Float64Array> = {};
  const ascending: Record<string, Uint32Array> = {};
  const descending: Record<string, Uint32Array> = {};
  for (const name of NUMERIC_SNAPSHOT_COLUMNS) {
    values[name] = view(`s.${name}`) as Float64Array;
    ascending[name] = view(`s.asc.${name}`) as Uint32Array;
    descending[name] = view(`s.desc.${name}`) as Uint32Array;
  }
  const snapshots: SnapshotTable = {
    size: snapshotSize,
    date: view('s.date') as Int32Array,
    values,
    ascending,
    descending,
  };
  const tradingDays = index['k.days'] === undefined ? null : (view('k.days') as Int32Array);
  return { klines, fundamentals, snapshots, tradingDays };
}
