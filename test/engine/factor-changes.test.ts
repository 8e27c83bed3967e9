// factorChanges and adjustmentEvents (the rows whose adj_factor differs from the row before), and round6, against hand-made columns and the fixture's CSV text.

import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { factorChanges } from '../../engine/kernels/factor-changes.js';
import { round6 } from '../../engine/kernels/round.js';
import { adjustmentEvents } from '../../engine/queries/actions.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';
import { FIXTURE } from '../helpers/api-server.js';
import { dayOf, FIX, FIXTURE_MARKETS } from '../helpers/fixture-model.js';

const changes = (adj: number[], rowsFrom: number, from: number, to: number): number[] => [
  ...factorChanges(Float64Array.from(adj), rowsFrom, from, to),
];

test('every row whose factor differs from the row before, ascending; the first row never', () => {
  assert.deepEqual(changes([1, 1, 2, 2, 2, 3, 1.5], 0, 0, 7), [2, 5, 6]);
  assert.deepEqual(changes([4, 1, 1], 0, 0, 3), [1], 'a factor going down is an event too');
  assert.deepEqual(changes([2, 2, 2], 0, 0, 3), [], 'no change, no event');
  assert.deepEqual(changes([], 0, 0, 0), [], 'no rows');
});

test('a window compares its first row with the row just before it, but never reaches before the symbol', () => {
  // Two symbols: rows 0–2 (1, 1, 2) and rows 3–5 (7, 7, 8): row 3 differs from row 2, but is its symbol's first row.
  const adj = [1, 1, 2, 7, 7, 8];
  assert.deepEqual(changes(adj, 0, 2, 3), [2], 'the window [2, 3) still sees row 2 change from row 1');
  assert.deepEqual(changes(adj, 3, 3, 6), [5], "the second symbol's first row is not an event");
  assert.deepEqual(changes(adj, 3, 4, 4), [], 'an empty window');
});

test('round6 rounds half away from zero at 6 decimals, as the decimal text reads', () => {
  assert.equal(round6(2), 2);
  assert.equal(round6(1.0000005), 1.000001);
  assert.equal(round6(1.0000004999), 1);
  assert.equal(round6(1.078512 / 1.052631), 1.024587);
  assert.equal(round6(-0.0000015), -0.000002);
  assert.ok(Number.isNaN(round6(Number.POSITIVE_INFINITY)));
});

// ---- the fixture's events ----

let stateDir = '';
let dataset: Dataset;

before(async () => {
  stateDir = await mkdtemp(join(tmpdir(), 'mdq-actions-'));
  await storeEdition(FIXTURE, stateDir);
  const opened = await openCurrentDataset(stateDir);
  assert.ok(opened !== null, 'the stored fixture opens as a Dataset');
  dataset = opened;
});

after(() => rm(stateDir, { recursive: true, force: true }));

/** The fixture's event dates of one symbol: bars whose adj_factor text reads as another number than the bar before's. */
function fixtureEvents(market: string, symbol: string, start?: string, end?: string): string[] {
  const bars = FIX[market].bars.get(symbol) ?? [];
  return bars
    .filter((b, i) => i > 0 && Number(b.adj) !== Number(bars[i - 1].adj))
    .map((b) => b.date)
    .filter((d) => (start === undefined || d >= start) && (end === undefined || d <= end));
}

function events(market: string, symbol: string, start?: string, end?: string): string[] {
  const m = dataset.markets[market as 'ashare'];
  const i = m.symbols.find(symbol);
  assert.ok(i >= 0, `${symbol} is in ${market}`);
  const rows = adjustmentEvents(
    m.klines,
    i,
    start === undefined ? null : dayOf(start),
    end === undefined ? null : dayOf(end),
  );
  return [...rows].map((row) => new Date(m.klines.date[row] * 86_400_000).toISOString().slice(0, 10));
}

test("every fixture symbol's events are its factor changes in the CSV (1 and 1.000000 are one factor)", () => {
  let seen = 0;
  for (const market of FIXTURE_MARKETS)
    for (const symbol of FIX[market].symbols) {
      const want = fixtureEvents(market, symbol);
      seen += want.length;
      assert.deepEqual(events(market, symbol), want, `${market} ${symbol}`);
    }
  assert.ok(seen >= 5, `the fixture has events to find (${seen})`);
});

test('start and end select events by their day; an event on start itself compares with the row before start', () => {
  for (const [start, end] of [
    ['2025-01-15', undefined],
    ['2025-01-16', '2025-02-20'],
    [undefined, '2025-02-19'],
    ['2025-02-21', '2025-02-21'],
  ] as const)
    assert.deepEqual(
      events('ashare', 'sh600001', start, end),
      fixtureEvents('ashare', 'sh600001', start, end),
      `${start} … ${end}`,
    );
  assert.deepEqual(events('ashare', 'sh600001', '2025-01-15', '2025-01-15'), ['2025-01-15']);
});
