// The screen over precomputed orders answers exactly what filtering and sorting per request answers.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { NUMERIC_SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import { deriveSnapshots } from '../../engine/kernels/derive-snapshot.js';
import { screenWalk } from '../../engine/kernels/screen-walk.js';
import { screen, screenBySorting, type ScreenQuery } from '../../engine/queries/screen.js';
import type { FundamentalColumns, KlineColumns } from '../../engine/dataset/kline-columns.js';

/** A seeded random market: 400 symbols, 30 days, values with ties and nulls. */
function randomTable() {
  let seed = 7;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const symbols = 400;
  const days = 30;
  const n = symbols * days;
  const col = (f: () => number): Float64Array => Float64Array.from({ length: n }, f);
  const price = (): number => (random() < 0.02 ? NaN : Math.round(random() * 20 + 1)); // coarse: many ties
  const k: KlineColumns = {
    offsets: Int32Array.from({ length: symbols + 1 }, (_, i) => i * days),
    date: Int32Array.from({ length: n }, (_, r) => 19000 + (r % days)),
    open: col(price),
    high: col(() => 30),
    low: col(() => 0.5),
    close: col(price),
    volume: col(() => Math.round(random() * 100)),
    amount: col(() => random() * 1e6),
    adj_factor: col(() => 1),
  };
  const f: FundamentalColumns = {
    offsets: Int32Array.from({ length: symbols + 1 }, (_, i) => i),
    date: Int32Array.from({ length: symbols }, () => 19010),
    columns: {
      pe_ratio: Float64Array.from({ length: symbols }, () => (random() < 0.1 ? NaN : Math.round(random() * 40 - 5))),
      total_shares: Float64Array.from({ length: symbols }, () => 1e8),
    },
  };
  return deriveSnapshots('ashare', k, f);
}

test('every column, both orders, with and without bounds, at several pages: the same rows as sorting per request', () => {
  const table = randomTable();
  const queries: ScreenQuery[] = [];
  for (const sort of NUMERIC_SNAPSHOT_COLUMNS) {
    for (const descending of [true, false]) {
      queries.push({ bounds: new Map(), sort, descending, offset: 0, limit: 50 });
      queries.push({ bounds: new Map([['pe_ratio', { min: 0, max: 20 }]]), sort, descending, offset: 10, limit: 25 });
      queries.push({
        bounds: new Map([
          ['close', { min: 5, max: 15 }],
          ['chg_5d', { min: -Infinity, max: 0 }],
        ]),
        sort,
        descending,
        offset: 0,
        limit: 500,
      });
      queries.push({ bounds: new Map(), sort, descending, offset: 390, limit: 50 });
    }
  }
  for (const q of queries) {
    const fast = screen(table, q);
    const naive = screenBySorting(table, q);
    assert.equal(fast.total, naive.total, `total for ${q.sort} ${q.descending ? 'desc' : 'asc'}`);
    assert.deepEqual(
      Array.from(fast.rows),
      Array.from(naive.rows),
      `rows for ${q.sort} ${q.descending ? 'desc' : 'asc'} offset ${q.offset}`,
    );
  }
});

test('500 seeded random screens (0–5 bounds at existing values, ±Infinity, empty ranges, any page): the same as sorting per request', () => {
  const table = randomTable();
  let seed = 11;
  const random = (): number => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
  const columns = NUMERIC_SNAPSHOT_COLUMNS;
  /** A value the column holds (so bounds land on ties), an unbounded side, or one past every value. */
  const edge = (name: string, side: 'min' | 'max'): number => {
    const r = random();
    if (r < 0.2) return side === 'min' ? -Infinity : Infinity;
    if (r < 0.25) return side === 'min' ? 1e300 : -1e300; // excludes every row
    const values = table.values[name];
    return values[Math.floor(random() * values.length)]; // may be NaN: then retried below
  };
  for (let q = 0; q < 500; q++) {
    const bounds = new Map<string, { min: number; max: number }>();
    const count = Math.floor(random() * 6); // 4 and 5 take the kernel's general path
    while (bounds.size < count) {
      const name = pick(columns);
      let min = edge(name, 'min');
      let max = edge(name, 'max');
      if (Number.isNaN(min) || Number.isNaN(max)) continue;
      if (min > max && random() < 0.8) [min, max] = [max, min]; // now and then an empty range
      bounds.set(name, { min, max });
    }
    const query: ScreenQuery = {
      bounds,
      sort: pick(columns),
      descending: random() < 0.5,
      offset: pick([0, 0, 3, 50, 399, 1000]),
      limit: pick([1, 7, 50, 500]),
    };
    const naive = screenBySorting(table, query);
    const what = JSON.stringify({ ...query, bounds: [...bounds].map(([c, b]) => `${c}:${b.min}..${b.max}`) });
    // As served (this table is small: the narrowest range is visited), and as a large table is screened (passes unless the range is narrow).
    const order = (query.descending ? table.descending : table.ascending)[query.sort];
    const ordered = [...bounds].map(([name, b]) => ({
      column: table.values[name],
      ascending: table.ascending[name],
      ...b,
    }));
    for (const [how, fast] of [
      ['as served', screen(table, query)],
      ['as a large table', screenWalk(order, ordered, query.offset, query.limit, 0)],
    ] as const) {
      assert.equal(fast.total, naive.total, `${how}: total of ${what}`);
      assert.deepEqual(Array.from(fast.rows), Array.from(naive.rows), `${how}: rows of ${what}`);
    }
  }
});
