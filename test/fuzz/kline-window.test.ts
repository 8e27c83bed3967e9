// Fuzzes the K-line window kernel and its binary searches against naive references: filter the date range, order, skip, take.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { lowerBound, upperBound } from '../../engine/kernels/date-range.js';
import { klineWindow, type WindowQuery } from '../../engine/kernels/kline-window.js';
import { runs } from './kit.js';

const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;

/**
 * The K-line window, naively: the symbol's days within [start, end]; with `start` the rows run
 * forward from it, without it backward from `end` (or the latest); skip `offset` rows in
 * that order, take `limit`, and answer them ascending. `total` is the range before paging.
 */
function referenceWindow(days: readonly number[], q: WindowQuery): { days: number[]; total: number } {
  const inRange = days.filter((d) => (q.start === null || d >= q.start) && (q.end === null || d <= q.end));
  const ordered = q.start !== null ? inRange : [...inRange].reverse();
  const page = ordered.slice(q.offset).slice(0, q.limit);
  return { days: q.start !== null ? page : page.reverse(), total: inRange.length };
}

/** Day numbers: mostly a dense stretch (so bounds land on, next to and between rows), sometimes anywhere in Int32. */
const dayNumber = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: -40, max: 60 }) },
  { weight: 1, arbitrary: fc.integer({ min: INT32_MIN, max: INT32_MAX }) },
);

/** A bound near the symbol's days (on one, or one either side), anywhere, or absent. */
const bound = (days: number[]): fc.Arbitrary<number | null> =>
  fc.option(
    days.length === 0
      ? dayNumber
      : fc.oneof(
          fc
            .tuple(fc.constantFrom(...days), fc.integer({ min: -1, max: 1 }))
            .map(([d, delta]) => Math.max(INT32_MIN, Math.min(INT32_MAX, d + delta))),
          dayNumber,
        ),
    { freq: 3 },
  );

/** A count: small, or as large as a query can ask (2^53 − 1 after the parameter's cap). */
const count = (min: number): fc.Arbitrary<number> =>
  fc.oneof(
    { weight: 5, arbitrary: fc.integer({ min, max: 45 }) },
    { weight: 1, arbitrary: fc.constantFrom(Number.MAX_SAFE_INTEGER, 2 ** 31) },
  );

/**
 * One symbol's sorted unique days inside a market column between other symbols' rows
 * (arbitrary values: a window that strays outside its rows reads them), and a query.
 */
const windowCase = fc
  .tuple(
    fc.array(fc.integer({ min: INT32_MIN, max: INT32_MAX }), { maxLength: 4 }),
    fc.uniqueArray(dayNumber, { maxLength: 60, size: 'max' }),
    fc.array(fc.integer({ min: INT32_MIN, max: INT32_MAX }), { maxLength: 4 }),
  )
  .map(([before, days, after]) => ({ before, days: [...days].sort((a, b) => a - b), after }))
  .chain((column) =>
    fc.record({
      column: fc.constant(column),
      query: fc.record({ start: bound(column.days), end: bound(column.days), offset: count(0), limit: count(0) }),
    }),
  );

test('klineWindow: for any sorted days and any start, end, offset and limit, the rows and total of the naive filter-order-skip-take', () => {
  fc.assert(
    fc.property(windowCase, ({ column: { before, days, after }, query }) => {
      const dates = Int32Array.from([...before, ...days, ...after]);
      const rowsFrom = before.length;
      const rowsTo = rowsFrom + days.length;
      const got = klineWindow(dates, rowsFrom, rowsTo, query);
      const want = referenceWindow(days, query);
      const label = `days ${JSON.stringify(days)}, query ${JSON.stringify(query)}`;
      assert.ok(
        rowsFrom <= got.from && got.from <= got.to && got.to <= rowsTo,
        `${label}: rows [${got.from}, ${got.to}) lie inside the symbol's [${rowsFrom}, ${rowsTo})`,
      );
      assert.deepEqual(
        Array.from(dates.subarray(got.from, got.to)),
        want.days,
        `${label}: the days of the naive window, ascending`,
      );
      assert.equal(got.total, want.total, `${label}: total counts the range before offset and limit`);
    }),
    runs(2000),
  );
});

/** A sorted column (repeats allowed), a sub-range [from, to) of it, and a day to look for. */
const searchCase = fc
  .array(dayNumber, { maxLength: 30 })
  .map((values) => Int32Array.from(values).sort())
  .chain((dates) =>
    fc.record({
      dates: fc.constant(dates),
      range: fc
        .tuple(fc.nat({ max: dates.length }), fc.nat({ max: dates.length }))
        .map(([a, b]) => [Math.min(a, b), Math.max(a, b)]),
      day: fc.oneof(dayNumber, dates.length === 0 ? dayNumber : fc.constantFrom(...dates)),
    }),
  );

test('lowerBound and upperBound: the first row of [from, to) on or after, and after, the day (`to` if none), as a linear scan finds it', () => {
  fc.assert(
    fc.property(searchCase, ({ dates, range: [from, to], day }) => {
      const scan = (keep: (d: number) => boolean): number => {
        for (let i = from; i < to; i++) if (keep(dates[i])) return i;
        return to;
      };
      const label = `dates ${JSON.stringify(Array.from(dates))} [${from}, ${to}), day ${day}`;
      assert.equal(
        lowerBound(dates, from, to, day),
        scan((d) => d >= day),
        `${label}: lowerBound is the first row ≥ day`,
      );
      assert.equal(
        upperBound(dates, from, to, day),
        scan((d) => d > day),
        `${label}: upperBound is the first row > day`,
      );
    }),
    runs(1000),
  );
});
