// Rendered snapshot rows equal JSON.stringify of the row objects, for every symbol and column set.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { SNAPSHOT_COLUMNS } from '../../../engine/columns.js';
import type { Dataset } from '../../../engine/dataset/dataset.js';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../../loaders/edition/stored-editions.js';
import { snapshotRow } from '../../../transport/serialise/rows.js';
import { SnapshotTextCache } from '../../../transport/serialise/snapshot-text.js';
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
const COLUMN_SETS = [ALL, ['symbol', 'date'], ['symbol', 'date', 'name', 'close', 'pe_ratio', 'wb_ratio', 'chg_ytd'], ['symbol', 'date', 'market_name', 'market_type', 'volume_ratio']];

test('every symbol of every market renders the reference JSON for every column set', () => {
  const cache = new SnapshotTextCache(1 << 20);
  let compared = 0;
  for (const m of Object.values(dataset.markets)) {
    for (let i = 0; i < m.symbols.size; i++) {
      for (const columns of COLUMN_SETS) {
        const expected = JSON.stringify(snapshotRow(m, i, columns));
        assert.equal(cache.row(m, i, columns, columns.join(',')).toString(), expected, `${m.market} ${m.symbols.codes[i]} ${columns.length} columns`);
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
    for (let i = 0; i < m.symbols.size; i++) assert.equal(cache.row(m, i, ALL, 'all').toString(), JSON.stringify(snapshotRow(m, i, ALL)));
  }
});
