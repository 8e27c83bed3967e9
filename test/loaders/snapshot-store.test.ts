// Storing snapshots in LMDB: a no-op when unchanged, untouched by a rejected folder, reopened exactly.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { formatDate } from '../../engine/calendar/days.js';
import { storeSnapshot, readCurrent } from '../../loaders/lmdb/snapshot-store.js';
import { openCurrentDataset } from '../../loaders/open-dataset.js';
import { SnapshotError } from '../../loaders/snapshot/snapshot-error.js';
import { csv, KLINE_HEADER, tempDir, writeSnapshotFolder } from '../helpers/snapshot-folder.js';

const run = promisify(execFile);
const LOAD_CLI = fileURLToPath(new URL('../../loaders/cli/load.js', import.meta.url));

let root = '';
let cleanup: () => Promise<void> = async () => {};
before(async () => ({ path: root, cleanup } = await tempDir()));
after(() => cleanup());

const GOOD = {
  'manifest.json': JSON.stringify({ id: 'test-1', note: 'fixture' }),
  'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,10,11,9,10.5,100,1050,1', 'sh600000,2024-01-03,10.5,11,10,10.8,120,1290,1.1'),
  'ashare/symbols.csv': csv('symbol,name', 'sh600000,浦发银行'),
  'macro.csv': csv('indicator,date,key,value', 'gdp,2023-12-31,GDP_GDP,1260582.1'),
};

test('a stored snapshot reopens with the same rows, names and macro, under a version naming manifest id and content', async () => {
  const state = join(root, 'reopen');
  const folder = await writeSnapshotFolder(join(root, 'reopen-src'), GOOD);
  const result = await storeSnapshot(folder, state);
  assert.match(result.version, /^test-1\.[0-9a-f]{12}$/);
  assert.equal(result.unchanged, false);
  const dataset = (await openCurrentDataset(state))!;
  assert.equal(dataset.version, result.version);
  const ashare = dataset.markets.ashare;
  assert.deepEqual(ashare.symbols.codes, ['sh600000']);
  assert.equal(ashare.symbols.name(0), '浦发银行');
  assert.deepEqual(Array.from(ashare.klines.date, formatDate), ['2024-01-02', '2024-01-03']);
  assert.deepEqual(Array.from(ashare.klines.close), [10.5, 10.8]);
  assert.deepEqual(Array.from(ashare.klines.adj_factor), [1, 1.1]);
  assert.ok(ashare.klines.close.buffer instanceof SharedArrayBuffer, 'columns live in shared memory');
  assert.equal(dataset.markets.hkstock.symbols.size, 0, 'a market the snapshot lacks is empty');
  assert.deepEqual(dataset.macro.map((r) => [r.indicator, formatDate(r.date), r.data]), [['gdp', '2023-12-31', { GDP_GDP: 1260582.1 }]]);
});

test('storing the same folder again writes nothing and does not even read it', async () => {
  const state = join(root, 'noop');
  const folder = await writeSnapshotFolder(join(root, 'noop-src'), GOOD);
  const first = await storeSnapshot(folder, state);
  const again = await storeSnapshot(folder, state);
  assert.deepEqual([again.version, again.unchanged, again.skippedRead], [first.version, true, true]);
  await utimes(join(folder, 'ashare/klines.csv'), new Date(), new Date(Date.now() + 5000));
  const touched = await storeSnapshot(folder, state);
  assert.deepEqual([touched.version, touched.unchanged, touched.skippedRead], [first.version, true, false], 'a touched but identical folder is read, found equal, and not written');
  const versions = (await readdir(join(state, 'snapshots'))).filter((n) => n !== 'current.json');
  assert.deepEqual(versions, [first.version]);
});

test('a changed folder becomes a new version', async () => {
  const state = join(root, 'changed');
  const folder = await writeSnapshotFolder(join(root, 'changed-src'), GOOD);
  const first = await storeSnapshot(folder, state);
  await writeFile(join(folder, 'ashare/klines.csv'), GOOD['ashare/klines.csv'].replace('10.8', '10.9'));
  const second = await storeSnapshot(folder, state);
  assert.notEqual(second.version, first.version);
  assert.equal((await readCurrent(state))!.version, second.version);
  assert.deepEqual(Array.from((await openCurrentDataset(state))!.markets.ashare.klines.close), [10.5, 10.9]);
});

test('a rejected snapshot leaves the stored one serving, untouched', async () => {
  const state = join(root, 'rejected');
  const good = await storeSnapshot(await writeSnapshotFolder(join(root, 'rejected-good'), GOOD), state);
  const bad = await writeSnapshotFolder(join(root, 'rejected-bad'), { ...GOOD, 'ashare/klines.csv': GOOD['ashare/klines.csv'] + 'sh600000,2024-01-04,10,9,11,10,1,1,1\n' });
  await assert.rejects(storeSnapshot(bad, state), (error: unknown) => error instanceof SnapshotError && error.file === 'ashare/klines.csv' && error.line === 4);
  assert.equal((await readCurrent(state))!.version, good.version);
  const dataset = (await openCurrentDataset(state))!;
  assert.equal(dataset.version, good.version);
  assert.equal(dataset.markets.ashare.klines.date.length, 2);
  const versions = (await readdir(join(state, 'snapshots'))).filter((n) => n !== 'current.json');
  assert.deepEqual(versions, [good.version], 'nothing of the rejected folder was left behind');
});

test('npm run load: exit 0 and the version for a good folder, non-zero and file:line on stderr for a bad one', async () => {
  const state = join(root, 'cli');
  const good = await writeSnapshotFolder(join(root, 'cli-good'), GOOD);
  const ok = await run(process.execPath, [LOAD_CLI, good, '--state', state]);
  assert.match(ok.stdout, /^test-1\.[0-9a-f]{12}: 2 K-line rows, stored/);
  const bad = await writeSnapshotFolder(join(root, 'cli-bad'), { ...GOOD, 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-13-02,10,11,9,10.5,100,1050,1') });
  await assert.rejects(run(process.execPath, [LOAD_CLI, bad, '--state', state]), (error: { code: number; stderr: string }) => {
    assert.equal(error.code, 1);
    assert.match(error.stderr, /ashare\/klines\.csv:2: date: not a date/);
    return true;
  });
});

test('switching back to a folder still stored is recognised without reading it', async () => {
  const state = join(root, 'switch');
  const a = await writeSnapshotFolder(join(root, 'switch-a'), GOOD);
  const b = await writeSnapshotFolder(join(root, 'switch-b'), { ...GOOD, 'ashare/klines.csv': GOOD['ashare/klines.csv'].replace('10.8', '11.8') });
  const first = await storeSnapshot(a, state);
  const second = await storeSnapshot(b, state);
  const back = await storeSnapshot(a, state);
  assert.notEqual(second.version, first.version);
  assert.deepEqual([back.version, back.skippedRead], [first.version, true]);
  assert.equal((await readCurrent(state))!.version, first.version);
  assert.deepEqual(Array.from((await openCurrentDataset(state))!.markets.ashare.klines.close), [10.5, 10.8]);
});
