// Broken and hostile snapshot folders are rejected whole with the exact `file:line: reason`, and the stored snapshot stays.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { folderFingerprint } from '../../loaders/edition/fingerprint.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { readCurrent } from '../../loaders/edition/stored-editions.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';
import { SnapshotError } from '../../loaders/snapshot/snapshot-error.js';
import { csv, KLINE_HEADER, tempDir, writeSnapshotFolder } from '../helpers/snapshot-folder.js';

const run = promisify(execFile);
const LOAD_CLI = fileURLToPath(new URL('../../loaders/cli/load.js', import.meta.url));

let root = '';
let cleanup: () => Promise<void> = async () => {};
let counter = 0;
const state = (): string => join(root, 'state');
let served = '';
/** The parts the good snapshot's edition names. */
let servedParts: string[] = [];

const ROW = 'sh600000,2024-01-02,10,11,9,10.5,100,1050,1';
const GOOD = {
  'manifest.json': JSON.stringify({ id: 'good' }),
  'ashare/klines.csv': csv(KLINE_HEADER, ROW, 'sh600000,2024-01-03,10.5,11,10,10.8,120,1290,1'),
  'ashare/symbols.csv': csv('symbol,name', 'sh600000,A'),
};

before(async () => {
  ({ path: root, cleanup } = await tempDir());
  served = (await storeEdition(await writeSnapshotFolder(join(root, 'good'), GOOD), state())).version;
  servedParts = (await readdir(join(state(), 'snapshots', 'parts'))).sort();
});
after(() => cleanup());

async function folder(files: Record<string, string | Buffer>): Promise<string> {
  return writeSnapshotFolder(join(root, `case${counter++}`), files);
}

/** Stores `path` and expects exactly `message`, with the good snapshot still the one stored and nothing else written. */
async function assertRejected(path: string, message: string): Promise<void> {
  await assert.rejects(storeEdition(path, state()), (error: unknown) => {
    assert.ok(error instanceof SnapshotError, `a SnapshotError, not ${String(error)}`);
    assert.equal(error.message, message);
    return true;
  });
  assert.equal((await readCurrent(state()))!.version, served, 'the stored snapshot still serves');
  const versions = (await readdir(join(state(), 'snapshots'))).filter((n) => n !== 'current.json' && n !== 'parts');
  assert.deepEqual(versions, [served], 'nothing of the rejected folder was stored');
  assert.deepEqual((await readdir(join(state(), 'snapshots', 'parts'))).sort(), servedParts, 'no part of it either');
}

const rejects = async (files: Record<string, string | Buffer>, message: string): Promise<void> =>
  assertRejected(await folder(files), message);

describe('a broken CSV is rejected whole, never loaded with rows missing', () => {
  const RIGHT = 'sh600000,2024-01-03,10.5,11,10,10.8,120,1290,1';

  test('an unbalanced quote in the middle of the file names its line', () =>
    rejects(
      {
        'ashare/klines.csv': csv(
          KLINE_HEADER,
          ROW,
          'sh600000,"2024-01-03,10.5,11,10,10.8,120,1290,1',
          'sh600000,2024-01-04,10.5,11,10,10.8,120,1290,1',
        ),
      },
      'ashare/klines.csv:3: unbalanced quote: a quoted cell does not close on its line',
    ));

  test('an unbalanced quote in the last row, with or without a final newline, names that row', async () => {
    const last = 'sh600000,2024-01-03,10.5,11,10,"10.8,120,1290,1';
    await rejects(
      { 'ashare/klines.csv': csv(KLINE_HEADER, ROW, last) },
      'ashare/klines.csv:3: unbalanced quote: a quoted cell does not close on its line',
    );
    await rejects(
      { 'ashare/klines.csv': `${KLINE_HEADER}\n${ROW}\n${last}` },
      'ashare/klines.csv:3: unbalanced quote: a quoted cell does not close on its line',
    );
  });

  test('a garbage last line without a newline is a row with the wrong number of cells', () =>
    rejects(
      { 'ashare/klines.csv': `${csv(KLINE_HEADER, ROW, RIGHT)}this is not csv` },
      'ashare/klines.csv:4: 1 cells where the header has 9',
    ));

  test('a header plus one unterminated, incomplete line is rejected, not read as an empty file', () =>
    rejects(
      { 'ashare/klines.csv': `${KLINE_HEADER}\nsh600000,2024-01-02,10` },
      'ashare/klines.csv:2: 3 cells where the header has 9',
    ));

  test('a row with one cell too many is rejected', () =>
    rejects(
      { 'ashare/klines.csv': csv(KLINE_HEADER, `${ROW},`) },
      'ashare/klines.csv:2: 10 cells where the header has 9',
    ));

  test('an unbalanced quote in symbols.csv rejects the file instead of nulling the names after it', () =>
    rejects(
      { ...GOOD, 'ashare/symbols.csv': csv('symbol,name', 'sh600000,A', 'sh600001,"B', 'sh600002,C') },
      'ashare/symbols.csv:3: unbalanced quote: a quoted cell does not close on its line',
    ));

  test('a quote inside an unquoted cell, or text after a closing quote, is rejected', async () => {
    await rejects(
      { ...GOOD, 'ashare/symbols.csv': csv('symbol,name', 'sh600000,5" pipe') },
      'ashare/symbols.csv:2: stray quote inside an unquoted cell',
    );
    await rejects(
      { ...GOOD, 'ashare/symbols.csv': csv('symbol,name', 'sh600000,"A"B') },
      'ashare/symbols.csv:2: text after a closing quote',
    );
  });

  test('a quoted line break (a cell spanning lines) is rejected at the line the quote opens', () =>
    rejects(
      { ...GOOD, 'ashare/symbols.csv': csv('symbol,name', 'sh600000,"two', 'lines"') },
      'ashare/symbols.csv:2: unbalanced quote: a quoted cell does not close on its line',
    ));

  test('bytes that are not UTF-8 are rejected, not replaced', () =>
    rejects(
      {
        ...GOOD,
        'ashare/symbols.csv': Buffer.concat([
          Buffer.from('symbol,name\nsh600000,'),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('\n'),
        ]),
      },
      'ashare/symbols.csv:2: not UTF-8 text (or a U+FFFD replacement character)',
    ));

  test('a broken last line in a gzip file is rejected too', () =>
    rejects(
      { 'ashare/klines.csv.gz': `${KLINE_HEADER}\n${ROW}\nsh600000,2024` },
      'ashare/klines.csv.gz:3: 2 cells where the header has 9',
    ));

  test('a truncated gzip file is rejected, not read up to the cut', async () => {
    const whole = gzipSync(
      csv(
        KLINE_HEADER,
        ...Array.from(
          { length: 50 },
          (_, i) => `sh6000${String(i).padStart(2, '0')},2024-01-02,10,11,9,10.5,100,1050,1`,
        ),
      ),
    );
    const path = await folder({ 'ashare/symbols.csv': GOOD['ashare/symbols.csv'] });
    await writeFile(join(path, 'ashare', 'klines.csv.gz'), whole.subarray(0, whole.length - 12));
    await assertRejected(path, 'ashare/klines.csv.gz: cannot read: unexpected end of file');
  });

  test('quoted cells, doubled quotes, CRLF and blank lines still read', async () => {
    const ok = await folder({
      'ashare/klines.csv': `${KLINE_HEADER}\r\n"sh600000",2024-01-02,10,11,9,10.5,100,1050,1\r\n\r\n${RIGHT}`,
      'ashare/symbols.csv': 'symbol,name\n"sh600000","A ""quoted"", name"\n',
    });
    const stateDir = join(root, `ok-state${counter++}`);
    await storeEdition(ok, stateDir);
    const ashare = (await openCurrentDataset(stateDir))!.markets.ashare;
    assert.equal(ashare.klines.date.length, 2);
    assert.equal(ashare.symbols.name(0), 'A "quoted", name');
  });
});

describe('no number in a stored snapshot can make an answer non-finite', () => {
  test('1e308 with adj_factor 2 (hfq overflows to Infinity) is rejected at its line', () =>
    rejects(
      {
        'ashare/klines.csv': csv(
          KLINE_HEADER,
          'sz000001,2024-01-02,10,11,9,10.5,100,1050,1',
          'sh600000,2024-01-02,1e308,1e308,9,10.5,100,1050,2',
        ),
      },
      'ashare/klines.csv:3: open: 1e+308 × adj_factor 2 (hfq) is beyond ±1e+15',
    ));

  test('a price whose qfq value (× adj ÷ the latest adj) leaves the bound is rejected at its line', () =>
    rejects(
      {
        'ashare/klines.csv': csv(
          KLINE_HEADER,
          'sh600000,2024-01-03,10,11,9,10.5,100,1050,0.000001',
          'sh600000,2024-01-02,10,11,9,1e10,100,1050,1',
        ),
      },
      'ashare/klines.csv:3: close: 10000000000 × adj_factor 1 / 0.000001 (qfq) is beyond ±1e+15',
    ));

  test('a tiny past adj_factor that would send prices qfq to its day (qfq_base, as_of) beyond the bound is rejected at the price', () =>
    rejects(
      {
        'ashare/klines.csv': csv(
          KLINE_HEADER,
          'sh600000,2024-01-02,10,11,9,10.5,100,1050,1e-310',
          'sh600000,2024-01-03,10,11,9,10.5,100,1050,1',
        ),
      },
      'ashare/klines.csv:3: open: 10 × adj_factor 1 / 1e-310 (qfq to 2024-01-02, the day of the smallest adj_factor, as qfq_base or as_of may ask) is beyond ±1e+15',
    ));

  test('so is a small past factor that makes a finite but too large qfq_base price', () =>
    rejects(
      {
        'ashare/klines.csv': csv(
          KLINE_HEADER,
          'sh600000,2024-01-03,1000,1100,900,1050,100,1050,1',
          'sh600000,2024-01-02,10,11,9,10.5,100,1050,1e-13',
        ),
      },
      'ashare/klines.csv:2: open: 1000 × adj_factor 1 / 1e-13 (qfq to 2024-01-02, the day of the smallest adj_factor, as qfq_base or as_of may ask) is beyond ±1e+15',
    ));

  test('factors whose every ratio keeps prices within the bound load', async () => {
    const stateDir = join(root, `ratio-state${counter++}`);
    await storeEdition(
      await folder({
        'ashare/klines.csv': csv(
          KLINE_HEADER,
          'sh600000,2024-01-02,10,11,9,10.5,100,1050,1e-12',
          'sh600000,2024-01-03,100,110,90,105,100,1050,1',
        ),
      }),
      stateDir,
    );
    assert.deepEqual(Array.from((await openCurrentDataset(stateDir))!.markets.ashare.klines.adj_factor), [1e-12, 1]);
  });

  test('a price at the bound loads', async () => {
    const stateDir = join(root, `bound-state${counter++}`);
    await storeEdition(
      await folder({ 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,1e15,1e15,1,1e15,100,1050,1') }),
      stateDir,
    );
    assert.deepEqual(Array.from((await openCurrentDataset(stateDir))!.markets.ashare.klines.close), [1e15]);
  });

  const notNumbers: [string, Record<string, string>, string][] = [
    [
      'volume `inf`',
      { 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,10,11,9,10.5,inf,1050,1') },
      "ashare/klines.csv:2: volume: not a number: 'inf'",
    ],
    [
      'amount `NaN`',
      { 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,10,11,9,10.5,100,NaN,1') },
      "ashare/klines.csv:2: amount: not a number: 'NaN'",
    ],
    [
      'amount `1e999` (overflows to Infinity)',
      { 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,10,11,9,10.5,100,1e999,1') },
      "ashare/klines.csv:2: amount: not a number: '1e999'",
    ],
    [
      'adj_factor `Infinity`',
      { 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,10,11,9,10.5,100,1050,Infinity') },
      "ashare/klines.csv:2: adj_factor: not a number: 'Infinity'",
    ],
    [
      'a fundamentals `inf`',
      {
        ...GOOD,
        'ashare/fundamentals.csv': csv(
          'symbol,date,pe_ratio,total_shares',
          'sh600000,2024-01-02,7.5,1e9',
          'sh600000,2024-01-03,inf,1e9',
        ),
      },
      "ashare/fundamentals.csv:3: pe_ratio: not a number: 'inf'",
    ],
    [
      'a fundamentals `1e999`',
      { ...GOOD, 'ashare/fundamentals.csv': csv('symbol,date,pe_ratio,total_shares', 'sh600000,2024-01-02,7.5,1e999') },
      "ashare/fundamentals.csv:2: total_shares: not a number: '1e999'",
    ],
    [
      'a fundamentals `-NaN`',
      { ...GOOD, 'ashare/fundamentals.csv': csv('symbol,date,pe_ratio', 'sh600000,2024-01-02,-NaN') },
      "ashare/fundamentals.csv:2: pe_ratio: not a number: '-NaN'",
    ],
    [
      'a macro value `1e999`',
      { ...GOOD, 'macro.csv': csv('indicator,date,key,value', 'gdp,2023-12-31,GDP_GDP,1e999') },
      "macro.csv:2: value: not a number: '1e999'",
    ],
  ];
  for (const [what, files, message] of notNumbers) test(`${what} is rejected`, () => rejects(files, message));
});

describe('edge cases that load, as they should', () => {
  /** Stores `files` in a state folder of their own and opens the result. */
  async function opened(files: Record<string, string | Buffer>, extra?: (path: string) => Promise<void>) {
    const path = await folder(files);
    await extra?.(path);
    const stateDir = join(root, `state${counter++}`);
    await storeEdition(path, stateDir);
    return (await openCurrentDataset(stateDir))!;
  }

  test('a UTF-8 byte order mark before the header is skipped, in klines.csv and symbols.csv', async () => {
    const bom = (text: string): Buffer => Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text)]);
    const ds = await opened({
      'ashare/klines.csv': bom(csv(KLINE_HEADER, ROW)),
      'ashare/symbols.csv': bom(csv('symbol,name', 'sh600000,A')),
    });
    assert.deepEqual(Array.from(ds.markets.ashare!.klines.close), [10.5]);
    assert.equal(ds.markets.ashare!.symbols.name(0), 'A');
  });

  test('`-0` is stored as 0, so no format can answer a negative zero', async () => {
    const ds = await opened({ 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,-0,11,-0,10.5,-0,1050,1') });
    const { open, low, volume } = ds.markets.ashare!.klines;
    for (const value of [open[0], low[0], volume[0]])
      assert.ok(Object.is(value, 0), `+0, not ${Object.is(value, -0) ? '-0' : value}`);
  });

  test('a hidden folder (`...`) is ignored; a market folder that links to `..` is not followed out of the snapshot', async () => {
    const ds = await opened({ ...GOOD, '.../klines.csv': csv(KLINE_HEADER, ROW) });
    const withRows = Object.entries(ds.markets)
      .filter(([, m]) => m != null && m.klines.close.length > 0)
      .map(([name]) => name);
    assert.deepEqual(withRows, ['ashare']);
    const path = await folder(GOOD);
    await symlink('..', join(path, 'hkstock'));
    await assertRejected(
      path,
      'hkstock/klines.csv: missing: every market folder needs its K-lines (klines.csv, or day files in hkstock/klines/)',
    );
  });
});

describe('stray entries are ignored; a named entry that cannot be read is a `file: reason`', () => {
  /** A good folder with a dangling link, a link loop, a directory loop and names that are not UTF-8, at the top and in a market folder. */
  async function strayFolder(): Promise<string> {
    const path = await folder(GOOD);
    await symlink(join(path, 'nowhere'), join(path, 'dangling'));
    await symlink('loop', join(path, 'loop'));
    await symlink('..', join(path, 'ashare', 'up'));
    await symlink(join(path, 'ashare', 'nowhere'), join(path, 'ashare', 'notes.txt'));
    await symlink('self', join(path, 'ashare', 'self'));
    const notUtf8 = Buffer.from([0x62, 0x61, 0x64, 0xff, 0xfe, 0x2e, 0x63, 0x73, 0x76]); // "bad\xff\xfe.csv"
    await writeFile(Buffer.concat([Buffer.from(`${path}/`), notUtf8]), 'x');
    await writeFile(Buffer.concat([Buffer.from(`${path}/ashare/`), notUtf8]), 'x');
    await mkdir(Buffer.concat([Buffer.from(`${path}/.hidden-`), notUtf8]));
    return path;
  }

  test('dangling links, link loops and names that are not UTF-8 do not stop a load', async () => {
    const stateDir = join(root, `stray-state${counter++}`);
    const result = await storeEdition(await strayFolder(), stateDir);
    assert.equal(result.rows, 2);
    assert.equal((await openCurrentDataset(stateDir))!.markets.ashare.symbols.name(0), 'A');
  });

  test('npm run load on such a folder exits 0 (no stack trace)', async () => {
    const { stdout, stderr } = await run(process.execPath, [
      LOAD_CLI,
      await strayFolder(),
      '--state',
      join(root, `stray-cli${counter++}`),
    ]);
    assert.match(stdout, /^good\.[0-9a-f]{12}: 2 K-line rows, stored/);
    assert.doesNotMatch(stderr, /Error|at /);
  });

  test('the fingerprint ignores stray entries and follows the named files', async () => {
    const path = await strayFolder();
    const first = await folderFingerprint(path);
    await symlink('elsewhere', join(path, 'another-dangling'));
    await writeFile(join(path, 'ashare', 'README.txt'), 'notes');
    assert.equal(await folderFingerprint(path), first, 'stray entries do not change it');
    await writeFile(join(path, 'ashare', 'symbols.csv'), csv('symbol,name', 'sh600000,B'));
    assert.notEqual(await folderFingerprint(path), first, 'a named file does');
  });

  test('a missing snapshot folder is a rejection naming it', async () => {
    const missing = join(root, 'no-such-folder');
    await assert.rejects(
      storeEdition(missing, state()),
      (error: unknown) => error instanceof SnapshotError && error.message === `${missing}: cannot read folder: ENOENT`,
    );
  });

  test('a named file that is a dangling link', async () => {
    const path = await folder({ 'ashare/klines.csv': GOOD['ashare/klines.csv'] });
    await symlink(join(path, 'nowhere'), join(path, 'ashare', 'symbols.csv'));
    await assertRejected(path, 'ashare/symbols.csv: cannot read: a link to nothing');
  });

  test('a named file that is a link loop', async () => {
    const path = await folder({ 'ashare/klines.csv': GOOD['ashare/klines.csv'] });
    await symlink('fundamentals.csv', join(path, 'ashare', 'fundamentals.csv'));
    await assertRejected(path, 'ashare/fundamentals.csv: cannot read: ELOOP');
  });

  test('a market folder that is a dangling link', async () => {
    const path = await folder(GOOD);
    await symlink(join(path, 'nowhere'), join(path, 'hkstock'));
    await assertRejected(path, 'hkstock/: cannot read: a link to nothing');
  });

  test('a named file that is a folder, or a FIFO (which must not hang the load)', async () => {
    const dir = await folder(GOOD);
    await mkdir(join(dir, 'ashare', 'fundamentals.csv'));
    await assertRejected(dir, 'ashare/fundamentals.csv: not a regular file');
    const fifo = await folder(GOOD);
    await run('mkfifo', [join(fifo, 'macro.csv')]);
    await assertRejected(fifo, 'macro.csv: not a regular file');
  });

  test('an oversized manifest.json is refused without reading it whole', () =>
    rejects(
      { ...GOOD, 'manifest.json': JSON.stringify({ id: 'big', note: 'x'.repeat(70_000) }) },
      'manifest.json: larger than 65536 bytes',
    ));
});
