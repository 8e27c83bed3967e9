// tradingDays (a bitmap over day numbers) and the market calendar made from it once per market, against a Set of the days and the fixture's CSV text.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { tradingDays } from '../../engine/kernels/trading-days.js';
import { marketCalendar, queryCalendar } from '../../engine/queries/calendar.js';
import { packMarket, unpackMarket } from '../../loaders/edition/market-pack.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';
import { FIXTURE } from '../helpers/api-server.js';
import { ALL_MARKETS, dayOf, FIX } from '../helpers/fixture-model.js';

/** The reference: distinct days by a Set, sorted numerically. */
const naive = (days: readonly number[]): number[] => [...new Set(days)].sort((a, b) => a - b);
const span = (days: readonly number[]): [number, number] => [Math.min(...days), Math.max(...days)];

function check(days: number[], message: string): void {
  const [first, last] = span(days);
  assert.deepEqual([...tradingDays(Int32Array.from(days), first, last)], naive(days), message);
}

test('distinct days ascending, whatever the order and repeats of the column', () => {
  check([5, 3, 5, 9, 3, 3, 4], 'unsorted with repeats');
  check([20000], 'one day');
  check([20000, 20000, 20000], 'one day many times');
});

test('days on both sides of a 32-bit word boundary, and the last bit of a word, are each listed once', () => {
  check([0, 31, 32, 63, 64, 95, 31, 32], 'bits 0, 31, 32, 63, 64, 95 from the first day');
  check([100, 131], 'the first and the 32nd day: bit 31 of the first word');
});

test('days before 1970 (negative day numbers) and a span of two centuries', () => {
  check([-25567, -1, 0, 1, 47846], '1900-01-01, 1969-12-31, 1970-01-01, 1970-01-02, 2100-12-31');
});

test('an empty column has no days, whatever the bounds', () => {
  assert.deepEqual([...tradingDays(new Int32Array(0), 0, 0)], []);
});

test('a seeded column of 20,000 rows over 3,000 days equals the Set reference', () => {
  let seed = 7;
  const next = (): number => (seed = (Math.imul(seed, 1664525) + 1013904223) >>> 0) / 2 ** 32; // an LCG in [0, 1)
  const days = Array.from({ length: 20_000 }, () => 16000 + Math.floor(next() * 3000));
  check(days, 'seeded');
});

test('a day outside the bounds given is a RangeError, not a silent wrong calendar', () => {
  assert.throws(() => tradingDays(Int32Array.from([5, 11]), 5, 10), RangeError);
  assert.throws(() => tradingDays(Int32Array.from([4, 6]), 5, 10), RangeError);
});

// ---- the market calendar of a stored fixture ----

let stateDir = '';
let dataset: Dataset;

before(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'mdq-calendar-'));
  await storeEdition(FIXTURE, stateDir);
  const opened = await openCurrentDataset(stateDir);
  assert.ok(opened !== null, 'the stored fixture opens as a Dataset');
  dataset = opened;
});

after(() => rm(stateDir, { recursive: true, force: true }));

/** The fixture's days of `market`: the sorted union of every symbol's K-line dates, as day numbers. */
const fixtureDays = (market: string): number[] =>
  naive([...FIX[market].bars.values()].flat().map((b) => dayOf(b.date)));

test('each market calendar is the sorted union of its symbols’ K-line dates in the fixture (empty markets: none)', () => {
  for (const market of ALL_MARKETS)
    assert.deepEqual([...marketCalendar(dataset.markets[market])], fixtureDays(market), market);
});

test('the days are stored with each market; a part stored without them (an older build) derives the same days, once', () => {
  for (const market of ALL_MARKETS) {
    const m = dataset.markets[market];
    assert.deepEqual([...(m.tradingDays ?? [])], fixtureDays(market), `${market}: stored`);
    assert.equal(marketCalendar(m), m.tradingDays, `${market}: the stored array is the calendar`);
    const { bytes, index } = packMarket({ ...m, tradingDays: null });
    const unpacked = unpackMarket(bytes.buffer, bytes.byteOffset, index, Object.keys(m.fundamentals.columns), 0);
    assert.equal(unpacked.tradingDays, null, `${market}: a pack without them reads as none`);
    const older = { ...m, ...unpacked };
    assert.deepEqual([...marketCalendar(older)], fixtureDays(market), `${market}: derived`);
    assert.equal(marketCalendar(older), marketCalendar(older), `${market}: derived once`);
  }
});

test('the calendar is derived once per market of a Dataset: the same array on every ask', () => {
  const m = dataset.markets.ashare;
  assert.equal(marketCalendar(m), marketCalendar(m), 'kept, not derived again');
  assert.equal(
    queryCalendar(m, { start: null, end: null, offset: 0, limit: 500 }).days.buffer,
    marketCalendar(m).buffer,
  );
  assert.notEqual(marketCalendar(m), marketCalendar(dataset.markets.hkstock), 'one per market');
});

test('a window counts its days in total and pages forward from its earliest day', () => {
  const all = fixtureDays('ashare');
  const [start, end] = [dayOf('2025-01-01'), dayOf('2025-03-10')];
  const inRange = all.filter((d) => d >= start && d <= end);
  const page = queryCalendar(dataset.markets.ashare, { start, end, offset: 4, limit: 6 });
  assert.equal(page.total, inRange.length);
  assert.deepEqual([...page.days], inRange.slice(4, 10));
  const past = queryCalendar(dataset.markets.ashare, { start, end, offset: 9999, limit: 6 });
  assert.deepEqual([past.days.length, past.total], [0, inRange.length], 'an offset past the end: no days');
  const none = queryCalendar(dataset.markets.ashare, { start: dayOf('2030-01-01'), end: null, offset: 0, limit: 6 });
  assert.deepEqual([none.days.length, none.total], [0, 0], 'a window after the last day: none');
});
