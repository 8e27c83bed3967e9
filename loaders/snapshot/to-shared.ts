// Copies a parsed market's columns into SharedArrayBuffers (one memcpy per column).

import { sharedFloat64, sharedInt32 } from '../../engine/dataset/kline-columns.js';
import type { ParsedMarket } from './parsed-snapshot.js';

function share<T extends Float64Array | Int32Array>(column: T): T {
  const out = (column instanceof Int32Array ? sharedInt32(column.length) : sharedFloat64(column.length)) as T;
  out.set(column);
  return out;
}

/** The same market with every typed array in shared memory; the input is left as it was. */
export function toShared(parsed: ParsedMarket): ParsedMarket {
  const klines = { ...parsed.klines };
  for (const key of Object.keys(klines) as (keyof typeof klines)[]) klines[key] = share(klines[key]) as never;
  const columns: Record<string, Float64Array> = {};
  for (const [name, values] of Object.entries(parsed.fundamentals.columns)) columns[name] = share(values);
  const fundamentals = { offsets: share(parsed.fundamentals.offsets), date: share(parsed.fundamentals.date), columns };
  return { ...parsed, klines, fundamentals };
}
