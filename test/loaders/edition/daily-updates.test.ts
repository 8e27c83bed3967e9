// Daily updates: rows appended to K-line files, day files added and removed, stored over the edition
// before: only the new bytes are read, merged into the stored columns, and the result equals a full
// store of the same folder byte for byte; an edit, a truncation or a duplicate is found.

import assert from 'node:assert/strict';
import { appendFile, cp, mkdir, readdir, readFile, rm, truncate, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { open } from 'lmdb';
import { after, before, test } from 'node:test';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { partDir } from '../../../loaders/edition/layout.js';
import { readEditionMetaOrNull } from '../../../loaders/edition/stored-editions.js';
import { SnapshotError } from '../../../loaders/snapshot/snapshot-error.js';
import { fixtureCopy } from '../../helpers/fixture-copy.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

let root = '';
let cleanup: () => Promise<void> = async () => {};
before(async () => ({ path: root, cleanup } = await tempDir('mdq-daily-')));
after(() => cleanup());

const MARKETS = ['ashare', 'hkstock', 'usstock'] as const;
const HEADER = 'symbol,date,open,high,low,close,volume,amount,adj_factor';
let counter = 0;

/** The (symbol, date) pairs every K-line file of `market` holds now (klines.csv and day files). */
async function pairsOf(folder: string, market: string): Promise<{ pairs: Set<string>; symbols: string[] }> {
  const files = [join(folder, market, 'klines.csv')];
  const days = await readdir(join(folder, market, 'klines')).catch(() => [] as string[]);
  for (const name of days) files.push(join(folder, market, 'klines', name));
  const pairs = new Set<string>();
  const symbols = new Set<string>();
  for (const path of files) {
    const raw = await readFile(path);
    const text = path.endsWith('.gz') ? (await import('node:zlib')).gunzipSync(raw).toString() : raw.toString();
    const lines = text.split('\n');
    const header = lines[0].split(',');
    const [s, d] = [header.indexOf('symbol'), header.indexOf('date')];
    for (const line of lines.slice(1)) {
      if (line.trim() === '') continue;
      const cells = line.split(',');
      // A date as the file writes it (hkstock's are YYYYMMDD), as the new rows write it.
      const date = /^\d{8}$/.test(cells[d])
        ? `${cells[d].slice(0, 4)}-${cells[d].slice(4, 6)}-${cells[d].slice(6)}`
        : cells[d];
      pairs.add(`${cells[s]}|${date}`);
      symbols.add(cells[s]);
    }
  }
  return { pairs, symbols: [...symbols].sort() };
}

/** A row as the header `columns` orders them. */
function row(columns: string[], symbol: string, date: string, price: number, volume: number, adj: number): string {
  const cells: Record<string, string> = {
    symbol,
    date,
    open: String(price),
    high: String(price + 1),
    low: String(price - 0.5),
    close: String(price + 0.25),
    volume: String(volume),
    amount: String(volume * price),
    adj_factor: String(adj),
  };
  return columns.map((c) => cells[c] ?? '').join(',');
}

const isoDay = (day: number): string => new Date(Date.UTC(2025, 2, 1) + day * 86_400_000).toISOString().slice(0, 10);

/** One change an operator makes to a market's K-lines. */
type Change =
  | { kind: 'append'; market: number; rows: RowSpec[] }
  | { kind: 'dayFile'; market: number; rows: RowSpec[]; gzip: boolean }
  | { kind: 'appendDayFile'; market: number; rows: RowSpec[] }
  | { kind: 'removeDayFile'; market: number };

/** A row to add: an existing symbol (by position) or a new one, on a day from 2025-03-01 (back in time too), priced. */
interface RowSpec {
  symbol: number;
  newSymbol: boolean;
  day: number;
  price: number;
  volume: number;
  adj: number;
}

const rowSpec = fc.record({
  symbol: fc.nat({ max: 50 }),
  newSymbol: fc.boolean(),
  day: fc.integer({ min: -500, max: 60 }),
  price: fc.integer({ min: 1, max: 500 }),
  volume: fc.nat({ max: 100_000 }),
  adj: fc.constantFrom(1, 1.5, 2.157024),
});
const market = fc.integer({ min: 0, max: MARKETS.length - 1 });
const change: fc.Arbitrary<Change> = fc.oneof(
  fc.record({ kind: fc.constant('append' as const), market, rows: fc.array(rowSpec, { minLength: 1, maxLength: 8 }) }),
  fc.record({
    kind: fc.constant('dayFile' as const),
    market,
    rows: fc.array(rowSpec, { minLength: 1, maxLength: 6 }),
    gzip: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('appendDayFile' as const),
    market,
    rows: fc.array(rowSpec, { minLength: 1, maxLength: 4 }),
  }),
  fc.record({ kind: fc.constant('removeDayFile' as const), market }),
);

/** Rows of `specs` for `market` that are new (a pair already present anywhere is skipped: a duplicate is another test's). */
async function freshRows(folder: string, m: string, specs: RowSpec[], columns: string[]): Promise<string[]> {
  const { pairs, symbols } = await pairsOf(folder, m);
  const out: string[] = [];
  for (const spec of specs) {
    const symbol =
      spec.newSymbol || symbols.length === 0 ? `zz${m}${spec.symbol}` : symbols[spec.symbol % symbols.length];
    const date = isoDay(spec.day);
    if (pairs.has(`${symbol}|${date}`)) continue;
    pairs.add(`${symbol}|${date}`);
    out.push(row(columns, symbol, date, spec.price, spec.volume, spec.adj));
  }
  return out;
}

/** Applies `c` to the folder; false when it changed nothing. */
async function apply(folder: string, c: Change): Promise<boolean> {
  const m = MARKETS[c.market];
  const klines = join(folder, m, 'klines.csv');
  const days = join(folder, m, 'klines');
  const columns = (await readFile(klines, 'utf8')).split('\n')[0].split(',');
  if (c.kind === 'append') {
    const rows = await freshRows(folder, m, c.rows, columns);
    if (rows.length === 0) return false;
    await appendFile(klines, `${rows.join('\n')}\n`);
    return true;
  }
  const existing = (await readdir(days).catch(() => [] as string[])).sort();
  if (c.kind === 'removeDayFile') {
    if (existing.length === 0) return false;
    await rm(join(days, existing[0]));
    return true;
  }
  if (c.kind === 'appendDayFile') {
    const plain = existing.filter((n) => n.endsWith('.csv'));
    if (plain.length === 0) return false;
    const rows = await freshRows(folder, m, c.rows, HEADER.split(','));
    if (rows.length === 0) return false;
    await appendFile(join(days, plain[plain.length - 1]), `${rows.join('\n')}\n`);
    return true;
  }
  const rows = await freshRows(folder, m, c.rows, HEADER.split(','));
  if (rows.length === 0) return false;
  await mkdir(days, { recursive: true });
  const text = `${HEADER}\n${rows.join('\n')}\n`;
  const name = `day-${String(counter++).padStart(4, '0')}.csv`;
  if (c.gzip) await writeFile(join(days, `${name}.gz`), gzipSync(text));
  else await writeFile(join(days, name), text);
  return true;
}

/** Each market's part of the edition stored under `state`: its meta and its pack, as bytes. */
async function partsOf(state: string, version: string): Promise<Record<string, { meta: string; pack: string }>> {
  const meta = readEditionMetaOrNull(state, version)!;
  const out: Record<string, { meta: string; pack: string }> = {};
  for (const m of meta.markets) {
    const env = open({ path: join(partDir(state, m.part), 'data.mdb'), readOnly: true });
    try {
      const pack = env.openDB({ name: 'market', encoding: 'binary' }).getBinary('pack')!;
      out[m.market] = { meta: JSON.stringify(env.get('meta')), pack: Buffer.from(pack).toString('base64') };
    } finally {
      await env.close();
    }
  }
  return out;
}

test('appended rows, new symbols, old dates in a tail, day files added (gzip too), grown and removed: each store over the edition before equals a full store of the same folder, byte for byte', async () => {
  let run = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 4 }), async (changes) => {
      const folder = await fixtureCopy(join(root, `prop-src-${run}`));
      const state = join(root, `prop-inc-${run++}`);
      await storeEdition(folder, state, { threads: 0 });
      for (const c of changes) {
        if (!(await apply(folder, c))) continue;
        const m = MARKETS[c.market];
        const incremental = await storeEdition(folder, state, { threads: 0 });
        const full = join(root, `prop-full-${run}-${counter++}`);
        const whole = await storeEdition(folder, full, { threads: 0 });
        assert.equal(incremental.version, whole.version, `${c.kind} ${m}: the same version as a full store`);
        // A removed day file takes its rows with it: that market is read whole; anything else is merged.
        // (The folder back as an edition stored before had it: that edition is served again, nothing read;
        // the market back as a part stored before had it: that part is named again, nothing read.)
        const expect = c.kind === 'removeDayFile' ? 'parsed' : 'merged';
        if (!incremental.unchanged && !incremental.reused.includes(m))
          assert.deepEqual(incremental[expect], [m], `${c.kind} ${m}: ${expect}`);
        assert.deepEqual(
          await partsOf(state, incremental.version),
          await partsOf(full, whole.version),
          `${c.kind} ${m}: every part byte for byte`,
        );
        await rm(full, { recursive: true, force: true });
      }
      await rm(folder, { recursive: true, force: true });
      await rm(state, { recursive: true, force: true });
    }),
    { numRuns: 25 },
  );
});

test('a file touched, or the folder copied elsewhere, keeps its stored rows counted: the next day appended is merged, not read whole', async () => {
  const folder = await fixtureCopy(join(root, 'moved-src'));
  const state = join(root, 'moved-state');
  await storeEdition(folder, state, { threads: 0 });
  const day = 'sh600001,2025-06-02,6,7,5,6.5,100,650,2.157024\n';
  // Touched (same bytes, new mtime): recorded again, nothing read.
  const path = join(folder, 'ashare/klines.csv');
  await utimes(path, new Date(), new Date(Date.now() + 5_000));
  const touched = await storeEdition(folder, state, { threads: 0 });
  assert.equal(touched.unchanged, true);
  await appendFile(path, day);
  const afterTouch = await storeEdition(folder, state, { threads: 0 });
  assert.deepEqual([afterTouch.merged, afterTouch.parsed], [['ashare'], []], 'a touched file: its tail merged');
  assert.equal(afterTouch.version, (await storeEdition(folder, join(root, 'touched-full'), { threads: 0 })).version);
  // The folder copied elsewhere (new paths, same bytes): served from the stored edition, then a day appended there.
  const copy = join(root, 'moved-copy');
  await cp(folder, copy, { recursive: true });
  const moved = await storeEdition(copy, state, { threads: 0 });
  assert.equal(moved.unchanged, true);
  await appendFile(join(copy, 'ashare/klines.csv'), day.replace('2025-06-02', '2025-06-03'));
  const afterMove = await storeEdition(copy, state, { threads: 0 });
  assert.deepEqual([afterMove.merged, afterMove.parsed], [['ashare'], []], 'a copied folder: its tail merged');
  assert.deepEqual(
    await partsOf(state, afterMove.version),
    await partsOf(
      join(root, 'moved-full'),
      (await storeEdition(copy, join(root, 'moved-full'), { threads: 0 })).version,
    ),
  );
});

test('an edit inside the stored bytes, a truncation and a shrink are each found: the market is read whole', async () => {
  const folder = await fixtureCopy(join(root, 'edit-src'));
  const state = join(root, 'edit-state');
  await storeEdition(folder, state, { threads: 0 });
  const path = join(folder, 'ashare/klines.csv');
  const text = await readFile(path, 'utf8');
  // One digit changed in the middle, the file's size kept (and a row appended, so it also grew).
  const middle = text.indexOf('\n', text.length >> 1) + 1;
  const line = text.slice(middle, text.indexOf('\n', middle));
  const edited = line.replace(/,(\d)(\d*),/, (_m, d: string, rest: string) => `,${(Number(d) % 9) + 1}${rest},`);
  assert.notEqual(edited, line);
  await writeFile(
    path,
    `${text.slice(0, middle)}${edited}${text.slice(middle + line.length)}sh600001,2025-06-02,6,7,5,6.5,100,650,2.157024\n`,
  );
  const afterEdit = await storeEdition(folder, state, { threads: 0 });
  assert.deepEqual(afterEdit.parsed, ['ashare'], 'an edited prefix: read whole');
  const fullEdit = await storeEdition(folder, join(root, 'edit-full'), { threads: 0 });
  assert.equal(afterEdit.version, fullEdit.version);
  // Truncated in the middle of a line: read whole (and refused: its last row is cut short).
  const now = await readFile(path, 'utf8');
  await truncate(path, now.length - 10);
  await assert.rejects(storeEdition(folder, state, { threads: 0 }), (e: unknown) => e instanceof SnapshotError);
  // Shrunk to whole rows: read whole, and the same as a full store.
  const lines = now.split('\n');
  await writeFile(path, `${lines.slice(0, lines.length - 5).join('\n')}\n`);
  const shrunk = await storeEdition(folder, state, { threads: 0 });
  assert.deepEqual(shrunk.parsed, ['ashare'], 'a shrunk file: read whole');
  assert.equal(shrunk.version, (await storeEdition(folder, join(root, 'shrink-full'), { threads: 0 })).version);
});

test('a row appended twice, or a day in two day files, is refused naming both places; nothing is stored', async () => {
  const folder = await fixtureCopy(join(root, 'dup-src'));
  const state = join(root, 'dup-state');
  const before = await storeEdition(folder, state, { threads: 0 });
  const path = join(folder, 'ashare/klines.csv');
  const storedLines = (await readFile(path, 'utf8')).split('\n').length - 1;
  const first = (await readFile(path, 'utf8')).split('\n')[1];
  // A stored row repeated in the tail: both its lines.
  await appendFile(path, `${first}\n`);
  await assert.rejects(storeEdition(folder, state, { threads: 0 }), (e: unknown) => {
    assert.ok(e instanceof SnapshotError);
    const [symbol, date] = first.split(',');
    assert.equal(
      e.message,
      `ashare/klines.csv:${storedLines + 1}: duplicate row for ${symbol} on ${date} (first at line 2)`,
    );
    return true;
  });
  await writeFile(path, (await readFile(path, 'utf8')).split('\n').slice(0, storedLines).join('\n').concat('\n'));
  // The same new day in two day files: both, each named.
  await mkdir(join(folder, 'ashare/klines'), { recursive: true });
  const day = `sh600001,2025-06-02,6,7,5,6.5,100,650,2.157024`;
  await writeFile(join(folder, 'ashare/klines/a.csv'), `${HEADER}\n${day}\n`);
  await writeFile(
    join(folder, 'ashare/klines/b.csv'),
    `${HEADER}\nsh600001,2025-06-03,6,7,5,6.5,100,650,2.157024\n${day}\n`,
  );
  await assert.rejects(storeEdition(folder, state, { threads: 0 }), (e: unknown) => {
    assert.ok(e instanceof SnapshotError);
    assert.equal(
      e.message,
      'ashare/klines/b.csv:3: duplicate row for sh600001 on 2025-06-02 (first at ashare/klines/a.csv:2)',
    );
    return true;
  });
  const editions = (await readdir(join(state, 'snapshots'))).filter((n) => n.startsWith('fixture'));
  assert.deepEqual(editions, [before.version], 'the edition before is the only one stored');
});

test("an edition records the part a market's merge only appended to: not when a merged row is dated on or before the market's last day, nor when the market is read whole", async () => {
  const folder = await fixtureCopy(join(root, 'lineage-src'));
  const state = join(root, 'lineage-state');
  const first = await storeEdition(folder, state, { threads: 0 });
  const partOf = (version: string) =>
    readEditionMetaOrNull(state, version)!.markets.find((m) => m.market === 'ashare')!;
  const klines = join(folder, 'ashare/klines.csv');
  // A day after the market's last (2025-03-14): appended.
  await appendFile(klines, 'sz000002,2025-03-17,7.33,7.40,7.30,7.38,10000,7380000.00,1\n');
  const appended = await storeEdition(folder, state, { threads: 0 });
  assert.deepEqual(appended.merged, ['ashare']);
  assert.equal(partOf(appended.version).appendsTo, partOf(first.version).part);
  // sz000003's row of that day, late (after its own last row, not after the market's): merged, history changed.
  await appendFile(klines, 'sz000003,2025-03-17,3.11,3.15,3.10,3.12,9000,2808000.00,1.031000\n');
  const backfilled = await storeEdition(folder, state, { threads: 0 });
  assert.deepEqual(backfilled.merged, ['ashare']);
  assert.equal(partOf(backfilled.version).appendsTo, undefined);
  // A day before sz000002's stored row (a late correction in the tail): the same.
  await appendFile(klines, 'sz000002,2025-03-13,7.20,7.30,7.10,7.25,9000,6525000.00,1\n');
  const inserted = await storeEdition(folder, state, { threads: 0 });
  assert.deepEqual(inserted.merged, ['ashare']);
  assert.equal(partOf(inserted.version).appendsTo, undefined);
  // Appended again, then the file edited in place (read whole): none either.
  await appendFile(klines, 'sz000002,2025-03-18,7.38,7.45,7.35,7.40,10000,7400000.00,1\n');
  const again = await storeEdition(folder, state, { threads: 0 });
  assert.equal(partOf(again.version).appendsTo, partOf(inserted.version).part);
  const text = await readFile(klines, 'utf8');
  await writeFile(klines, text.replace('sz000002,2025-03-14,7.31,', 'sz000002,2025-03-14,7.32,'));
  const edited = await storeEdition(folder, state, { threads: 0 });
  assert.deepEqual(edited.parsed, ['ashare']);
  assert.equal(partOf(edited.version).appendsTo, undefined);
});
