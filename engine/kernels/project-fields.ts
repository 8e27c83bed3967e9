// Resolves a requested column list (short codes, full names, `*`) to response order.

import { KLINE_FIELDS, KLINE_SHORT_CODES, type KlineField, SNAPSHOT_COLUMNS } from '../columns.js';

/** Either the resolved columns, or the first item that names no column. */
export type Projection<T> = { ok: true; fields: T[] } | { ok: false; unknown: string };

const ALWAYS_KLINE = new Set(['symbol', 'date', 'adj_factor']);
const KLINE_NAMES = new Set<string>(KLINE_FIELDS);

/**
 * K-line fields in the fixed order open, high, low, close, volume, amount, whatever the
 * request's order; `*` means all. symbol, date and adj_factor are accepted and always
 * answered, so they add nothing here. Matching is case-insensitive.
 */
export function projectKlineFields(items: readonly string[]): Projection<KlineField> {
  const wanted = new Set<KlineField>();
  let all = false;
  for (const raw of items) {
    const item = raw.toLowerCase();
    if (item === '*') all = true;
    else if (ALWAYS_KLINE.has(item)) continue;
    else {
      // Own keys only: `__proto__` or `constructor` must not resolve through Object.prototype.
      const field = Object.hasOwn(KLINE_SHORT_CODES, item)
        ? KLINE_SHORT_CODES[item]
        : KLINE_NAMES.has(item)
          ? (item as KlineField)
          : undefined;
      if (field === undefined) return { ok: false, unknown: raw };
      wanted.add(field);
    }
  }
  return { ok: true, fields: all ? [...KLINE_FIELDS] : KLINE_FIELDS.filter((f) => wanted.has(f)) };
}

const SNAPSHOT_NAMES = SNAPSHOT_COLUMNS.map((c) => c.name);
const SNAPSHOT_SET = new Set(SNAPSHOT_NAMES);

/** Snapshot columns in the spec's table order; `*` means all; symbol and date always lead. */
export function projectSnapshotColumns(items: readonly string[]): Projection<string> {
  const wanted = new Set<string>(['symbol', 'date']);
  let all = false;
  for (const raw of items) {
    const item = raw.toLowerCase();
    if (item === '*') all = true;
    else if (!SNAPSHOT_SET.has(item)) return { ok: false, unknown: raw };
    else wanted.add(item);
  }
  return { ok: true, fields: all ? [...SNAPSHOT_NAMES] : SNAPSHOT_NAMES.filter((n) => wanted.has(n)) };
}
