// Every symbol's row of one day (the cross-section's rows), against a scan of the market's rows,
// and the last days asked of a market kept: the same rows again, at most KEPT_DAYS days.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import { dayRowsOf, KEPT_DAYS, rowsOfDay } from '../../engine/queries/cross-section.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';
import { FIXTURE } from '../helpers/api-server.js';

let stateDir: string;
let dataset: Dataset;
before(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'mdq-day-rows-'));
  await storeEdition(FIXTURE, stateDir, { threads: 0 });
  dataset = (await openCurrentDataset(stateDir))!;
});
after(() => rm(stateDir, { recursive: true, force: true }));

/** The reference: a scan of every row, symbol by symbol. */
function scanned(m: MarketData, day: number): { symbols: number[]; rows: number[] } {
  const out = { symbols: [] as number[], rows: [] as number[] };
  const k = m.klines;
  for (let i = 0; i < m.symbols.size; i++)
    for (let row = k.offsets[i]; row < k.offsets[i + 1]; row++)
      if (k.date[row] === day) out.symbols.push(i), out.rows.push(row);
  return out;
}

/** Every distinct day of the market's rows, ascending, with a day before and after them all. */
function daysOf(m: MarketData): number[] {
  const days = [...new Set(m.klines.date)].sort((a, b) => a - b);
  return days.length === 0 ? [] : [days[0] - 1, ...days, days[days.length - 1] + 1];
}

test('each day of each market: the rows a scan finds, symbols ascending, and the same through the kept days', () => {
  for (const m of Object.values(dataset.markets)) {
    for (const day of daysOf(m)) {
      const expected = scanned(m, day);
      const found = rowsOfDay(m, day);
      assert.deepEqual([[...found.symbols], [...found.rows]], [expected.symbols, expected.rows], `${m.market} ${day}`);
      const kept = dayRowsOf(m, day);
      assert.deepEqual(
        [[...kept.symbols], [...kept.rows]],
        [expected.symbols, expected.rows],
        `${m.market} ${day} kept`,
      );
    }
  }
});

test('a day asked again is the kept rows; past KEPT_DAYS other days the oldest is found afresh', () => {
  const m = dataset.markets.ashare;
  const days = daysOf(m);
  assert.ok(days.length > KEPT_DAYS + 1, 'the fixture has enough days');
  const first = dayRowsOf(m, days[0]);
  assert.equal(dayRowsOf(m, days[0]), first, 'kept');
  for (const day of days.slice(1, KEPT_DAYS)) dayRowsOf(m, day); // KEPT_DAYS days in all
  assert.equal(dayRowsOf(m, days[0]), first, 'still kept: asked again, it became the latest');
  for (const day of days.slice(KEPT_DAYS, 2 * KEPT_DAYS)) dayRowsOf(m, day);
  const again = dayRowsOf(m, days[0]);
  assert.notEqual(again, first, 'forgotten once KEPT_DAYS later days were asked, found afresh');
  assert.deepEqual([...again.rows], [...first.rows]);
});
