// A thread that served one edition opens the next: a market's part read in place (16 MiB and more)
// opened after the part before it was closed reads whole, wherever the system maps it. lmdb-js keeps
// the buffer of a map by its address with the size it first had: a larger part mapped where a closed
// one was would be read through the old, shorter buffer and refused as damaged.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { openEdition } from '../../../loaders/edition/open-edition.js';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

const GEN_DEMO = new URL('../../../loaders/demo/cli.js', import.meta.url).pathname;

let dir: Awaited<ReturnType<typeof tempDir>>;
before(async () => (dir = await tempDir('mdq-part-reopen-')));
after(() => dir?.cleanup());

/** Appends to ashare's klines.csv a row on `day` for each symbol that traded on its last day; returns how many. */
async function appendAshareDay(folder: string, day: string): Promise<number> {
  const path = join(folder, 'ashare/klines.csv');
  const lines = (await readFile(path, 'latin1')).trimEnd().split('\n').slice(1);
  const last = lines.reduce((d, l) => (l.split(',')[1] > d ? l.split(',')[1] : d), '');
  const rows = lines.filter((l) => l.split(',')[1] === last).map((l) => l.replace(`,${last},`, `,${day},`));
  await appendFile(path, `${rows.join('\n')}\n`);
  return rows.length;
}

test('each edition of a growing market opens after the one before it closed, its last day read from its part', async () => {
  const folder = join(dir.path, 'snapshot');
  const state = join(dir.path, 'state');
  const made = spawnSync(process.execPath, [GEN_DEMO, '--out', folder, '--scale', '0.1', '--years', '5'], {
    encoding: 'utf8',
  });
  assert.equal(made.status, 0, made.stderr);
  let served = openEdition(state, (await storeEdition(folder, state, { threads: 1 })).version);
  const ashare = served.dataset.markets.ashare;
  assert.ok(ashare.klines.close.buffer.byteLength >= 16 * 1024 * 1024, 'ashare is read in place (mapped)');
  let rows = ashare.klines.date.length;
  for (const day of ['2026-11-02', '2026-11-03', '2026-11-04']) {
    const added = await appendAshareDay(folder, day);
    const stored = await storeEdition(folder, state, { threads: 1 });
    assert.deepEqual(stored.merged, ['ashare'], 'the new day merged into the stored part');
    await served.close(); // the edition before is released first, as a serving thread does
    served = openEdition(state, stored.version);
    const { klines, lastDate } = served.dataset.markets.ashare;
    assert.equal(klines.date.length, rows + added, `${day}: every row of the part`);
    assert.equal(lastDate, Date.parse(day) / 86_400_000, `${day}: the new last day (days since 1970)`);
    let latest = 0;
    for (const d of klines.date) latest = Math.max(latest, d); // every page of the column read through the map
    assert.equal(latest, lastDate, `${day}: the latest date of the rows`);
    rows += added;
  }
  await served.close();
});
