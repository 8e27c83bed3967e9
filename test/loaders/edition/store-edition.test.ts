// Storing snapshot folders as editions: a no-op when unchanged, untouched by a rejected folder, reopened
// exactly, and only the markets whose files changed parsed again, with the same result as a full store.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { open } from 'lmdb';
import { formatDate } from '../../../engine/calendar/days.js';
import type { Dataset } from '../../../engine/dataset/dataset.js';
import { DamagedFile } from '../../../loaders/edition/damage.js';
import { editionText } from '../../../loaders/edition/edition-file.js';
import { editionFile, envFile, FORMAT, partDir, partsDir } from '../../../loaders/edition/layout.js';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { openCurrentDataset, pruneEditions, readCurrent } from '../../../loaders/edition/stored-editions.js';
import { SnapshotError } from '../../../loaders/snapshot/snapshot-error.js';
import { fixtureCopy } from '../../helpers/fixture-copy.js';
import { csv, KLINE_HEADER, tempDir, writeSnapshotFolder } from '../../helpers/snapshot-folder.js';

const run = promisify(execFile);
const LOAD_CLI = fileURLToPath(new URL('../../../loaders/cli/load.js', import.meta.url));

let root = '';
let cleanup: () => Promise<void> = async () => {};
before(async () => ({ path: root, cleanup } = await tempDir()));
after(() => cleanup());

const GOOD = {
  'manifest.json': JSON.stringify({ id: 'test-1', note: 'fixture' }),
  'ashare/klines.csv': csv(
    KLINE_HEADER,
    'sh600000,2024-01-02,10,11,9,10.5,100,1050,1',
    'sh600000,2024-01-03,10.5,11,10,10.8,120,1290,1.1',
  ),
  'ashare/symbols.csv': csv('symbol,name', 'sh600000,浦发银行'),
  'macro.csv': csv('indicator,date,key,value', 'gdp,2023-12-31,GDP_GDP,1260582.1'),
};

test('a stored snapshot reopens with the same rows, names and macro, under a version naming manifest id and content', async () => {
  const state = join(root, 'reopen');
  const folder = await writeSnapshotFolder(join(root, 'reopen-src'), GOOD);
  const result = await storeEdition(folder, state);
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
  assert.equal(dataset.markets.hkstock.symbols.size, 0, 'a market the snapshot lacks is empty');
  assert.deepEqual(
    dataset.macro.map((r) => [r.indicator, formatDate(r.date), r.data]),
    [['gdp', '2023-12-31', { GDP_GDP: 1260582.1 }]],
  );
});

test('storing the same folder again writes nothing and does not even read it', async () => {
  const state = join(root, 'noop');
  const folder = await writeSnapshotFolder(join(root, 'noop-src'), GOOD);
  const first = await storeEdition(folder, state);
  const again = await storeEdition(folder, state);
  assert.deepEqual([again.version, again.unchanged, again.skippedRead], [first.version, true, true]);
  await utimes(join(folder, 'ashare/klines.csv'), new Date(), new Date(Date.now() + 5000));
  const touched = await storeEdition(folder, state);
  assert.deepEqual(
    [touched.version, touched.unchanged, touched.skippedRead],
    [first.version, true, false],
    'a touched but identical folder is read, found equal, and not written',
  );
  const versions = (await readdir(join(state, 'snapshots'))).filter((n) => n !== 'current.json' && n !== 'parts');
  assert.deepEqual(versions, [first.version]);
});

test('a changed folder becomes a new version', async () => {
  const state = join(root, 'changed');
  const folder = await writeSnapshotFolder(join(root, 'changed-src'), GOOD);
  const first = await storeEdition(folder, state);
  await writeFile(join(folder, 'ashare/klines.csv'), GOOD['ashare/klines.csv'].replace('10.8', '10.9'));
  const second = await storeEdition(folder, state);
  assert.notEqual(second.version, first.version);
  assert.equal((await readCurrent(state))!.version, second.version);
  assert.deepEqual(Array.from((await openCurrentDataset(state))!.markets.ashare.klines.close), [10.5, 10.9]);
});

test('a rejected snapshot leaves the stored one serving, untouched', async () => {
  const state = join(root, 'rejected');
  const good = await storeEdition(await writeSnapshotFolder(join(root, 'rejected-good'), GOOD), state);
  const bad = await writeSnapshotFolder(join(root, 'rejected-bad'), {
    ...GOOD,
    'ashare/klines.csv': `${GOOD['ashare/klines.csv']}sh600000,2024-01-04,10,9,11,10,1,1,1\n`,
  });
  await assert.rejects(
    storeEdition(bad, state),
    (error: unknown) => error instanceof SnapshotError && error.file === 'ashare/klines.csv' && error.line === 4,
  );
  assert.equal((await readCurrent(state))!.version, good.version);
  const dataset = (await openCurrentDataset(state))!;
  assert.equal(dataset.version, good.version);
  assert.equal(dataset.markets.ashare.klines.date.length, 2);
  const versions = (await readdir(join(state, 'snapshots'))).filter((n) => n !== 'current.json' && n !== 'parts');
  assert.deepEqual(versions, [good.version], 'nothing of the rejected folder was left behind');
  assert.equal((await readdir(join(state, 'snapshots', 'parts'))).length, 1, 'no part of it either');
});

test('npm run load: exit 0 and the version for a good folder, non-zero and file:line on stderr for a bad one', async () => {
  const state = join(root, 'cli');
  const good = await writeSnapshotFolder(join(root, 'cli-good'), GOOD);
  const ok = await run(process.execPath, [LOAD_CLI, good, '--state', state]);
  assert.match(ok.stdout, /^test-1\.[0-9a-f]{12}: 2 K-line rows, stored/);
  const bad = await writeSnapshotFolder(join(root, 'cli-bad'), {
    ...GOOD,
    'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-13-02,10,11,9,10.5,100,1050,1'),
  });
  await assert.rejects(
    run(process.execPath, [LOAD_CLI, bad, '--state', state]),
    (error: { code: number; stderr: string }) => {
      assert.equal(error.code, 1);
      assert.match(error.stderr, /ashare\/klines\.csv:2: date: not a date/);
      return true;
    },
  );
});

test('switching back to a folder still stored is recognised without reading it', async () => {
  const state = join(root, 'switch');
  const a = await writeSnapshotFolder(join(root, 'switch-a'), GOOD);
  const b = await writeSnapshotFolder(join(root, 'switch-b'), {
    ...GOOD,
    'ashare/klines.csv': GOOD['ashare/klines.csv'].replace('10.8', '11.8'),
  });
  const first = await storeEdition(a, state);
  const second = await storeEdition(b, state);
  const back = await storeEdition(a, state);
  assert.notEqual(second.version, first.version);
  assert.deepEqual([back.version, back.skippedRead], [first.version, true]);
  assert.equal((await readCurrent(state))!.version, first.version);
  assert.deepEqual(Array.from((await openCurrentDataset(state))!.markets.ashare.klines.close), [10.5, 10.8]);
});

/** Every array of every market, the symbols, labels and macro of a Dataset, as bytes and text to compare. */
function contentOf(d: Dataset): unknown {
  const bytes = (a: ArrayBufferView): string => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');
  const tables = (o: Record<string, ArrayBufferView>): Record<string, string> =>
    Object.fromEntries(Object.entries(o).map(([k, v]) => [k, bytes(v)]));
  return {
    version: d.version,
    manifest: d.manifest,
    macro: d.macro,
    markets: Object.values(d.markets).map((m) => ({
      market: m.market,
      symbols: m.symbols.codes,
      labels: m.symbols.labels,
      span: [m.firstDate, m.lastDate],
      klines: tables(m.klines as unknown as Record<string, ArrayBufferView>),
      fundamentals: {
        offsets: bytes(m.fundamentals.offsets),
        date: bytes(m.fundamentals.date),
        columns: tables(m.fundamentals.columns),
      },
      snapshots: {
        date: bytes(m.snapshots.date),
        values: tables(m.snapshots.values),
        ascending: tables(m.snapshots.ascending),
        descending: tables(m.snapshots.descending),
      },
    })),
  };
}

/** One value of `file` changed (its content, not only its bytes): the first data row's cell of `column` (manifest.json: the note). */
async function changeOne(folder: string, file: string): Promise<void> {
  const path = join(folder, file);
  const text = await readFile(path, 'utf8');
  if (file === 'manifest.json') return writeFile(path, JSON.stringify({ ...JSON.parse(text), note: 'changed' }));
  const column = { klines: 'volume', fundamentals: 'pe_ratio', symbols: 'name', macro: 'value' }[
    file.replace(/^.*\//, '').replace('.csv', '')
  ]!;
  const lines = text.split('\n');
  const at = lines[0].split(',').indexOf(column);
  const cells = lines[1].split(',');
  cells[at] = column === 'name' ? `${cells[at]} (renamed)` : String(Number(cells[at]) + 1);
  lines[1] = cells.join(',');
  await writeFile(path, lines.join('\n'));
}

const FIXTURE_FILES = [
  'manifest.json',
  'macro.csv',
  ...['ashare', 'hkstock', 'usstock'].flatMap((m) => ['klines', 'symbols', 'fundamentals'].map((f) => `${m}/${f}.csv`)),
];

test('every file changed in turn: a store over the edition before parses only its market, and equals a full store of the same folder', async () => {
  for (const file of FIXTURE_FILES) {
    const folder = await fixtureCopy(join(root, `each-${file.replace('/', '-')}`));
    const incremental = join(root, `each-inc-${file.replace('/', '-')}`);
    const before = await storeEdition(folder, incremental, { threads: 0 });
    await changeOne(folder, file);
    const after = await storeEdition(folder, incremental, { threads: 0 });
    const market = file.includes('/') ? file.split('/')[0] : null;
    assert.notEqual(after.version, before.version, `${file}: a new version`);
    // K-lines edited in place: the market is read whole; symbols or fundamentals changed: merged into its part.
    const klines = file.endsWith('/klines.csv');
    assert.deepEqual(
      after.parsed,
      market !== null && klines ? [market] : [],
      `${file}: read whole only when its K-lines changed in place`,
    );
    assert.deepEqual(
      after.merged,
      market !== null && !klines ? [market] : [],
      `${file}: only its market is stored again`,
    );
    assert.deepEqual(
      after.reused.sort(),
      ['ashare', 'hkstock', 'usstock'].filter((m) => m !== market),
      `${file}: the others are taken as stored`,
    );
    const full = join(root, `each-full-${file.replace('/', '-')}`);
    const fresh = await storeEdition(folder, full, { threads: 0 });
    assert.deepEqual(fresh.parsed.sort(), ['ashare', 'hkstock', 'usstock']);
    assert.equal(after.version, fresh.version, `${file}: the same version`);
    assert.deepEqual(
      contentOf((await openCurrentDataset(incremental))!),
      contentOf((await openCurrentDataset(full))!),
      `${file}: the same Dataset, byte for byte`,
    );
  }
});

test('KEEP_EDITIONS: the newest editions stay with the parts they name; older ones and parts no edition names go', async () => {
  const state = join(root, 'keep');
  const folder = await fixtureCopy(join(root, 'keep-src'));
  const versions: string[] = [];
  for (let i = 0; i < 4; i++) {
    await changeOne(folder, 'hkstock/klines.csv');
    versions.push((await storeEdition(folder, state, { threads: 0 })).version);
  }
  const old = (await readdir(join(state, 'snapshots', 'parts'))).filter((p) => p.startsWith('hkstock-'));
  assert.equal(old.length, 4, 'a hkstock part per edition, one part of each other market');
  const deleted = await pruneEditions(state, 2);
  assert.deepEqual(deleted.sort(), versions.slice(0, 2).sort());
  const left = (await readdir(join(state, 'snapshots'))).filter((n) => n !== 'current.json' && n !== 'parts');
  assert.deepEqual(left.sort(), versions.slice(2).sort());
  assert.equal((await readdir(join(state, 'snapshots', 'parts'))).filter((p) => p.startsWith('hkstock-')).length, 2);
  assert.deepEqual(
    Array.from((await openCurrentDataset(state))!.markets.hkstock.klines.volume).slice(0, 1).length,
    1,
    'the current edition still opens',
  );
});

test('KEEP_EDITIONS counts the edition a store writes: with `prune`, editions beyond it (and their parts) are deleted before its parts are written, never one in use', async () => {
  const state = join(root, 'keep-before');
  const folder = await fixtureCopy(join(root, 'keep-before-src'));
  const stored = async (): Promise<string[]> =>
    (await readdir(join(state, 'snapshots')))
      .filter((n) => !n.startsWith('.') && n !== 'current.json' && n !== 'parts')
      .sort();
  const versions: string[] = [];
  for (let i = 0; i < 3; i++) {
    await changeOne(folder, 'hkstock/klines.csv');
    versions.push((await storeEdition(folder, state, { threads: 0 })).version);
  }
  // Without `prune` nothing is deleted; with it, keep 2 leaves the served edition and the one being written.
  await changeOne(folder, 'hkstock/klines.csv');
  let seen: string[] = [];
  const fourth = await storeEdition(folder, state, {
    threads: 0,
    prune: { keep: 2, inUse: [versions[0]] },
    onWritten: async () => void (seen = await stored()),
  });
  assert.deepEqual(
    seen,
    [versions[0], versions[2], fourth.version].sort(),
    'the one in use stays, the one beyond goes',
  );
  const hkParts = (await readdir(partsDir(state))).filter((p) => p.startsWith('hkstock-'));
  assert.equal(hkParts.length, 3, "the deleted edition's own part went with it");
  await changeOne(folder, 'hkstock/klines.csv');
  const fifth = await storeEdition(folder, state, {
    threads: 0,
    prune: { keep: 2, inUse: [] },
    onWritten: async () => void (seen = await stored()),
  });
  assert.deepEqual(seen, [fourth.version, fifth.version].sort());
  assert.equal((await readCurrent(state))?.version, fifth.version);
});

test("an edition stored in the layout before (format 3: each pack's sha256, no crc32) is refused when opened (read again), not served and then found damaged", async () => {
  const state = join(root, 'format-3');
  const folder = await writeSnapshotFolder(join(root, 'format-3-src'), GOOD);
  const { version } = await storeEdition(folder, state);
  // What a build of format 3 left: edition.json and every part's meta of format 3, a pack's sha256 where the crc32 is now.
  const meta = JSON.parse(await readFile(editionFile(state, version), 'utf8'));
  await writeFile(editionFile(state, version), editionText({ ...meta, format: 3 }));
  for (const part of await readdir(partsDir(state))) {
    const env = open({ path: envFile(partDir(state, part)), encoding: 'msgpack' });
    const { packCrc32: _now, ...before } = env.get('meta') as Record<string, unknown>;
    await env.put('meta', { ...before, format: 3, packSha256: 'ab'.repeat(32) });
    await env.close();
  }
  await assert.rejects(
    openCurrentDataset(state),
    (e: unknown) =>
      e instanceof DamagedFile && e.message.includes(`stored in format 3; this version reads format ${FORMAT}`),
    'an edition of format 3 is not opened as one of this format',
  );
});
