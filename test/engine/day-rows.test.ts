// Every symbol's row of one day (the cross-section's rows), against a scan of the market's rows,
// and the last days asked of a market kept: the same rows again, at most KEPT_DAYS days.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import { DayRowsCache, KEPT_DAYS, rowsOfDay } from '../../engine/queries/cross-section.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';
import { RowOfDay } from '../../engine/queries/row-of-day.js';
import { FIXTURE } from '../helpers/api-server.js';
import { csv, KLINE_HEADER, writeSnapshotFolder } from '../helpers/snapshot-folder.js';

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

/** Every day from the day before the market's first row to the day after its last: trading days, weekends, holidays. */
function daysOf(m: MarketData): number[] {
  if (m.firstDate === null || m.lastDate === null) return [];
  return Array.from({ length: m.lastDate - m.firstDate + 3 }, (_, k) => m.firstDate! - 1 + k);
}

test('each day of each market: the rows a scan finds, symbols ascending, and the same through the kept days', () => {
  const cache = new DayRowsCache();
  for (const m of Object.values(dataset.markets)) {
    for (const day of daysOf(m)) {
      const expected = scanned(m, day);
      const found = rowsOfDay(m, day);
      assert.deepEqual([[...found.symbols], [...found.rows]], [expected.symbols, expected.rows], `${m.market} ${day}`);
      const kept = cache.of(m, day);
      assert.deepEqual(
        [[...kept.symbols], [...kept.rows]],
        [expected.symbols, expected.rows],
        `${m.market} ${day} kept`,
      );
    }
  }
});

test('symbols that miss days, start late, stop early or trade once: each row of each day found, as a scan finds it', async (t) => {
  // 80 weekdays; symbol k misses the days where (d·(k+3)) mod 7 is 0 (k = 1 misses none), and
  // some start late or stop early. The fixture's symbols trade every day of their span: it
  // leaves the calendar narrowing's suspensions untried.
  const weekdays = Array.from({ length: 112 }, (_, d) => Date.UTC(2025, 0, 6) / 86_400_000 + d).filter(
    (day) => ((day % 7) + 7) % 7 < 5, // 1970-01-01 was a Thursday: days 2 and 3 mod 7 are the weekend
  );
  const lines: string[] = [];
  for (let k = 0; k < 8; k++) {
    const code = `sh60000${k}`;
    const [from, to] = k === 5 ? [40, 41] : k === 6 ? [30, 80] : k === 7 ? [0, 50] : [0, weekdays.length];
    for (let d = from; d < to; d++) {
      if (k !== 1 && k !== 5 && (d * (k + 3)) % 7 === 0) continue;
      const date = new Date(weekdays[d] * 86_400_000).toISOString().slice(0, 10);
      lines.push(`${code},${date},1,1,1,${k + d / 100},${d},1,1`);
    }
  }
  const dir = await mkdtemp(join(tmpdir(), 'mdq-gaps-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const folder = await writeSnapshotFolder(join(dir, 'snapshot'), { 'ashare/klines.csv': csv(KLINE_HEADER, ...lines) });
  await storeEdition(folder, join(dir, 'state'), { threads: 0 });
  const m = (await openCurrentDataset(join(dir, 'state')))!.markets.ashare;
  let rows = 0;
  for (const day of daysOf(m)) {
    const expected = scanned(m, day);
    const found = rowsOfDay(m, day);
    assert.deepEqual([[...found.symbols], [...found.rows]], [expected.symbols, expected.rows], `day ${day}`);
    const rowOf = new RowOfDay(m, day);
    for (let i = 0; i < m.symbols.size; i++) {
      const at = expected.symbols.indexOf(i);
      assert.equal(rowOf.of(i), at < 0 ? -1 : expected.rows[at], `symbol ${i} on day ${day}`);
    }
    rows += expected.rows.length;
  }
  assert.equal(rows, lines.length, 'every row found once');
});

test('a day asked again is the kept rows; past KEPT_DAYS other days the oldest is found afresh', () => {
  const m = dataset.markets.ashare;
  const days = daysOf(m);
  assert.ok(days.length > KEPT_DAYS + 1, 'the fixture has enough days');
  const cache = new DayRowsCache();
  const dayRowsOf = (m: MarketData, day: number) => cache.of(m, day);
  const first = dayRowsOf(m, days[0]);
  assert.equal(dayRowsOf(m, days[0]), first, 'kept');
  for (const day of days.slice(1, KEPT_DAYS)) dayRowsOf(m, day); // KEPT_DAYS days in all
  assert.equal(dayRowsOf(m, days[0]), first, 'still kept: asked again, it became the latest');
  for (const day of days.slice(KEPT_DAYS, 2 * KEPT_DAYS)) dayRowsOf(m, day);
  const again = dayRowsOf(m, days[0]);
  assert.notEqual(again, first, 'forgotten once KEPT_DAYS later days were asked, found afresh');
  assert.deepEqual([...again.rows], [...first.rows]);
});
