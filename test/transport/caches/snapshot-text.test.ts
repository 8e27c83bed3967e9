// Rendered snapshot rows equal JSON.stringify of the row objects, for every symbol and column set;
// what they hold stays within the budget, one-off column sets going before the ones in use.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { buildAsOf } from '../../../engine/dataset/as-of.js';
import { SNAPSHOT_COLUMNS } from '../../../engine/columns.js';
import type { Dataset } from '../../../engine/dataset/dataset.js';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../../loaders/edition/stored-editions.js';
import { snapshotRow } from '../../../transport/serialise/rows.js';
import { ROW_OVERHEAD_BYTES, SnapshotTextCache } from '../../../transport/caches/snapshot-text.js';
import { FIXTURE } from '../../helpers/api-server.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

let dataset: Dataset;
let cleanup: () => Promise<void>;
before(async () => {
  const dir = await tempDir();
  cleanup = dir.cleanup;
  await storeEdition(FIXTURE, dir.path, { threads: 0 });
  dataset = (await openCurrentDataset(dir.path))!;
});
after(() => cleanup());

const ALL = SNAPSHOT_COLUMNS.map((c) => c.name);
const COLUMN_SETS = [
  ALL,
  ['symbol', 'date'],
  ['symbol', 'date', 'name', 'close', 'pe_ratio', 'wb_ratio', 'chg_ytd'],
  ['symbol', 'date', 'market_name', 'market_type', 'volume_ratio'],
];

test('every symbol of every market renders the reference JSON for every column set', () => {
  const cache = new SnapshotTextCache(1 << 20);
  let compared = 0;
  for (const m of Object.values(dataset.markets)) {
    for (let i = 0; i < m.symbols.size; i++) {
      for (const columns of COLUMN_SETS) {
        const expected = JSON.stringify(snapshotRow(m, i, columns));
        assert.equal(
          cache.row(m, i, columns, columns.join(',')).toString(),
          expected,
          `${m.market} ${m.symbols.codes[i]} ${columns.length} columns`,
        );
        assert.equal(cache.row(m, i, columns, columns.join(',')).toString(), expected, 'the cached row is the same');
        compared++;
      }
    }
  }
  assert.ok(compared >= 40, `compared ${compared} rows`);
});

test('a cache over its budget starts over and still answers correctly', () => {
  const m = dataset.markets.ashare;
  const cache = new SnapshotTextCache(200); // smaller than two rows
  for (let round = 0; round < 2; round++) {
    for (let i = 0; i < m.symbols.size; i++)
      assert.equal(cache.row(m, i, ALL, 'all').toString(), JSON.stringify(snapshotRow(m, i, ALL)));
  }
});

test('kept rows are views of slabs the cache owns, never of a shared pool slab', () => {
  const m = dataset.markets.ashare;
  const cache = new SnapshotTextCache(1 << 20);
  const rows = Array.from({ length: m.symbols.size }, (_, i) => cache.row(m, i, ALL, 'all'));
  const slabs = new Set(rows.map((row) => row.buffer));
  assert.ok(slabs.size < rows.length, "rows share their table's slabs");
  const behind = [...slabs].reduce((n, slab) => n + slab.byteLength, 0);
  assert.ok(
    cache.bytes >= behind + rows.length * ROW_OVERHEAD_BYTES,
    `every slab behind the rows is counted, and every row's view (${cache.bytes} counted, ${behind} in slabs)`,
  );
});

test('the bytes held stay within the budget while one-off column sets come and go, and a set in use stays', () => {
  const m = dataset.markets.ashare;
  const budget = 256 * 1024;
  const cache = new SnapshotTextCache(budget);
  const used = cache.row(m, 0, ALL, 'all');
  for (let n = 0; n < 2000; n++) {
    const columns = ['symbol', 'date', ALL[2 + (n % (ALL.length - 2))]];
    assert.equal(
      cache.row(m, n % m.symbols.size, columns, `${columns.join(',')}#${n}`).toString(),
      JSON.stringify(snapshotRow(m, n % m.symbols.size, columns)),
    );
    assert.ok(cache.bytes <= budget, `within the budget after ${n + 1} one-off sets: ${cache.bytes}`);
    if (n % 2 === 0) assert.strictEqual(cache.row(m, 0, ALL, 'all'), used, 'the set read all along is still kept');
  }
});

test('the rows of an as-of table stop counting once the table is collected', async () => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const m = dataset.markets.ashare;
  const cache = new SnapshotTextCache(1 << 20);
  cache.row(m, 0, ALL, 'all');
  const before = cache.bytes;
  (() => {
    const view = buildAsOf(m, m.klines.date[m.klines.offsets[1] - 1] - 1);
    for (let i = 0; i < view.symbols.size; i++) cache.row(view, i, ALL, 'all');
    assert.ok(cache.bytes > before, 'the as-of rows count while the table lives');
  })();
  for (let round = 0; round < 50 && cache.bytes > before; round++) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(cache.bytes, before, 'back to the rows of the live table');
});
