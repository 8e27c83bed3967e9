// The snapshot reader accepts every variation the format allows (docs/operators.md, "The snapshot folder") and rejects every violation with file:line.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { join } from 'node:path';
import { formatDate } from '../../engine/calendar/days.js';
import { readSnapshot } from '../../loaders/snapshot/read-snapshot.js';
import { SnapshotError } from '../../loaders/snapshot/snapshot-error.js';
import type { ParsedSnapshot } from '../../loaders/snapshot/parsed-snapshot.js';
import { csv, KLINE_HEADER, tempDir, writeSnapshotFolder } from '../helpers/snapshot-folder.js';

let root = '';
let cleanup: () => Promise<void> = async () => {};
let counter = 0;

before(async () => ({ path: root, cleanup } = await tempDir()));
after(() => cleanup());

async function read(files: Record<string, string>): Promise<ParsedSnapshot> {
  return readSnapshot(await writeSnapshotFolder(join(root, `s${counter++}`), files));
}

async function rejection(files: Record<string, string>): Promise<SnapshotError> {
  try {
    await read(files);
  } catch (error) {
    assert.ok(error instanceof SnapshotError, `expected a SnapshotError, got ${String(error)}`);
    return error;
  }
  assert.fail('the snapshot was accepted but should have been rejected');
}

/** Rows of one symbol as [date, close] pairs. */
function closes(parsed: ParsedSnapshot, market: string, symbol: string): [string, number][] {
  const m = parsed.markets.find((x) => x.market === market)!;
  const i = m.symbols.indexOf(symbol);
  const out: [string, number][] = [];
  for (let r = m.klines.offsets[i]; r < m.klines.offsets[i + 1]; r++)
    out.push([formatDate(m.klines.date[r]), m.klines.close[r]]);
  return out;
}

const GOOD_KLINES = csv(
  KLINE_HEADER,
  'sh600000,2024-01-02,10,11,9,10.5,100,1050,1',
  'sh600000,2024-01-03,10.5,11,10,10.8,120,1290,1',
);

describe('accepted variations', () => {
  test('a folder with only ashare/klines.csv is a snapshot; absent markets are simply absent', async () => {
    const parsed = await read({ 'ashare/klines.csv': GOOD_KLINES });
    assert.deepEqual(
      parsed.markets.map((m) => m.market),
      ['ashare'],
    );
    assert.equal(parsed.rows, 2);
    assert.deepEqual(parsed.markets[0].symbols, ['sh600000']);
    assert.deepEqual(parsed.markets[0].names, [null], 'a symbol without symbols.csv has a null name');
    assert.deepEqual(parsed.macro, []);
    assert.deepEqual(parsed.manifest, {});
  });

  test('columns are found by name in any order, header case and spaces do not matter, extra columns are ignored', async () => {
    const parsed = await read({
      'ashare/klines.csv': csv(
        ' Close ,extra,date,symbol,AMOUNT,volume,low,high,open',
        '10.5,zzz,2024-01-02,sh600000,1050,100,9,11,10',
      ),
    });
    const k = parsed.markets[0].klines;
    assert.deepEqual(
      [k.open[0], k.high[0], k.low[0], k.close[0], k.volume[0], k.amount[0]],
      [10, 11, 9, 10.5, 100, 1050],
    );
  });

  test('YYYYMMDD and YYYY-MM-DD name the same day', async () => {
    const parsed = await read({
      'ashare/klines.csv': csv(
        KLINE_HEADER,
        'sh600000,20240102,10,11,9,10.5,100,1050,1',
        'sh600000,2024-01-03,10,11,9,10.6,100,1050,1',
      ),
    });
    assert.deepEqual(closes(parsed, 'ashare', 'sh600000'), [
      ['2024-01-02', 10.5],
      ['2024-01-03', 10.6],
    ]);
  });

  test('an empty cell is null (NaN in the columns), an empty or absent adj_factor is 1', async () => {
    const withColumn = await read({ 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,,11,9,10.5,,1050,') });
    const k = withColumn.markets[0].klines;
    assert.ok(Number.isNaN(k.open[0]), 'empty open is null');
    assert.ok(Number.isNaN(k.volume[0]), 'empty volume is null');
    assert.equal(k.adj_factor[0], 1, 'empty adj_factor is 1');
    const without = await read({
      'ashare/klines.csv': csv(
        'symbol,date,open,high,low,close,volume,amount',
        'sh600000,2024-01-02,10,11,9,10.5,100,1050',
      ),
    });
    assert.equal(without.markets[0].klines.adj_factor[0], 1, 'absent adj_factor column is 1');
  });

  test('rows in any order come out sorted by symbol (code-unit order) then date', async () => {
    const parsed = await read({
      'ashare/klines.csv': csv(
        KLINE_HEADER,
        'sz000001,2024-01-03,1,1,1,3,1,1,1',
        'sh600000,2024-01-03,1,1,1,2,1,1,1',
        'sz000001,2024-01-02,1,1,1,4,1,1,1',
        'sh600000,2024-01-02,1,1,1,1,1,1,1',
      ),
    });
    assert.deepEqual(parsed.markets[0].symbols, ['sh600000', 'sz000001']);
    assert.deepEqual(closes(parsed, 'ashare', 'sh600000'), [
      ['2024-01-02', 1],
      ['2024-01-03', 2],
    ]);
    assert.deepEqual(closes(parsed, 'ashare', 'sz000001'), [
      ['2024-01-02', 4],
      ['2024-01-03', 3],
    ]);
  });

  test('a .csv.gz stands in for any .csv', async () => {
    const parsed = await read({
      'ashare/klines.csv.gz': GOOD_KLINES,
      'ashare/symbols.csv.gz': csv('symbol,name', 'sh600000,浦发银行'),
      'macro.csv.gz': csv('indicator,date,key,value', 'pmi,2024-01-31,PMI_MANUFACTURING,49.2'),
    });
    assert.equal(parsed.rows, 2);
    assert.deepEqual(parsed.markets[0].names, ['浦发银行']);
    assert.equal(parsed.macro.length, 1);
  });

  test('CRLF line endings, a byte-order mark and quoted cells are read as plain CSV', async () => {
    const parsed = await read({
      'hkstock/klines.csv': `\uFEFF${KLINE_HEADER}\r\nhk00700,2024-01-02,300,310,295,305,1000,305000,1\r\n`,
      'hkstock/symbols.csv': 'symbol,name,market_name\r\nhk00700,"Tencent, Holdings ""A""",HKEX\r\n',
    });
    const m = parsed.markets[0];
    assert.equal(m.klines.close[0], 305);
    assert.deepEqual(m.names, ['Tencent, Holdings "A"']);
    assert.deepEqual(m.marketNames, ['HKEX']);
  });

  test('a file without a trailing newline keeps its last row', async () => {
    const parsed = await read({ 'ashare/klines.csv': `${KLINE_HEADER}\nsh600000,2024-01-02,10,11,9,10.5,100,1050,1` });
    assert.equal(parsed.rows, 1);
  });

  test('symbols listed only in symbols.csv or fundamentals.csv are kept, with no K-lines', async () => {
    const parsed = await read({
      'ashare/klines.csv': GOOD_KLINES,
      'ashare/symbols.csv': csv('symbol,name', 'sh600000,A', 'sh600001,B'),
      'ashare/fundamentals.csv': csv('symbol,date,pe_ratio', 'sz000002,2024-01-02,7.5'),
    });
    const m = parsed.markets[0];
    assert.deepEqual(m.symbols, ['sh600000', 'sh600001', 'sz000002']);
    assert.deepEqual(Array.from(m.klines.offsets), [0, 2, 2, 2]);
    assert.deepEqual(Array.from(m.fundamentals.offsets), [0, 0, 0, 1]);
  });

  test('macro points are ordered by indicator (gdp, cpi_ppi, pmi), date and key; empty values are null', async () => {
    const parsed = await read({
      'macro.csv': csv(
        'indicator,date,key,value',
        'pmi,2024-01-31,PMI_MANUFACTURING,49.2',
        'gdp,2023-12-31,GDP_GDP_YOY,5.2',
        'cpi_ppi,2024-01-31,CPI_CPI_YOY,',
        'gdp,2023-09-30,GDP_GDP_YOY,4.9',
      ),
    });
    assert.deepEqual(
      parsed.macro.map((p) => [p.indicator, formatDate(p.date), p.key, p.value]),
      [
        ['gdp', '2023-09-30', 'GDP_GDP_YOY', 4.9],
        ['gdp', '2023-12-31', 'GDP_GDP_YOY', 5.2],
        ['cpi_ppi', '2024-01-31', 'CPI_CPI_YOY', null],
        ['pmi', '2024-01-31', 'PMI_MANUFACTURING', 49.2],
      ],
    );
  });

  test('the content hash depends on the bytes, not on the folder', async () => {
    const a = await read({ 'ashare/klines.csv': GOOD_KLINES });
    const b = await read({ 'ashare/klines.csv': GOOD_KLINES });
    const c = await read({ 'ashare/klines.csv': GOOD_KLINES.replace('10.8', '10.9') });
    assert.equal(a.contentHash, b.contentHash);
    assert.notEqual(a.contentHash, c.contentHash);
  });
});

describe('rejected violations name the file and line', () => {
  const cases: { name: string; files: Record<string, string>; file: string; line: number }[] = [
    {
      name: 'a missing required column',
      files: { 'ashare/klines.csv': csv('symbol,date,open,high,low,volume,amount', 'sh600000,2024-01-02,1,1,1,1,1') },
      file: 'ashare/klines.csv',
      line: 1,
    },
    {
      name: 'an unparsable number',
      files: {
        'ashare/klines.csv': csv(
          KLINE_HEADER,
          'sh600000,2024-01-02,10,11,9,10.5,100,1050,1',
          'sh600000,2024-01-03,10,11,9,ten,100,1050,1',
        ),
      },
      file: 'ashare/klines.csv',
      line: 3,
    },
    {
      name: 'a lenient number Number() would accept (hex)',
      files: { 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,0x10,11,9,10.5,100,1050,1') },
      file: 'ashare/klines.csv',
      line: 2,
    },
    {
      name: 'Infinity as a number',
      files: { 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,10,Infinity,9,10.5,100,1050,1') },
      file: 'ashare/klines.csv',
      line: 2,
    },
    {
      name: 'an unparsable date',
      files: { 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024/01/02,10,11,9,10.5,100,1050,1') },
      file: 'ashare/klines.csv',
      line: 2,
    },
    {
      name: 'a date that is not on the calendar',
      files: { 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-02-30,10,11,9,10.5,100,1050,1') },
      file: 'ashare/klines.csv',
      line: 2,
    },
    {
      name: 'a duplicate symbol+date (the second occurrence)',
      files: {
        'ashare/klines.csv': csv(
          KLINE_HEADER,
          'sh600000,2024-01-02,10,11,9,10.5,100,1050,1',
          'sh600000,2024-01-03,10,11,9,10.5,100,1050,1',
          'sh600000,20240102,10,11,9,10.5,100,1050,1',
        ),
      },
      file: 'ashare/klines.csv',
      line: 4,
    },
    {
      name: 'high below low',
      files: { 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,10,9,11,10.5,100,1050,1') },
      file: 'ashare/klines.csv',
      line: 2,
    },
    {
      name: 'a negative volume',
      files: { 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,10,11,9,10.5,-1,1050,1') },
      file: 'ashare/klines.csv',
      line: 2,
    },
    {
      name: 'a non-positive adj_factor',
      files: { 'ashare/klines.csv': csv(KLINE_HEADER, 'sh600000,2024-01-02,10,11,9,10.5,1,1050,0') },
      file: 'ashare/klines.csv',
      line: 2,
    },
    {
      name: 'an unknown market folder',
      files: { 'ashare/klines.csv': GOOD_KLINES, 'forex/klines.csv': GOOD_KLINES },
      file: 'forex/',
      line: 0,
    },
    {
      name: 'a market folder without klines.csv',
      files: { 'ashare/symbols.csv': csv('symbol,name', 'sh600000,A') },
      file: 'ashare/klines.csv',
      line: 0,
    },
    {
      name: 'a symbol that differs from another only by case',
      files: {
        'ashare/klines.csv': csv(
          KLINE_HEADER,
          'sh600000,2024-01-02,10,11,9,10.5,100,1050,1',
          'SH600000,2024-01-03,10,11,9,10.5,100,1050,1',
        ),
      },
      file: 'ashare/klines.csv',
      line: 3,
    },
    {
      name: 'a symbol listed twice in symbols.csv',
      files: { 'ashare/klines.csv': GOOD_KLINES, 'ashare/symbols.csv': csv('symbol,name', 'sh600000,A', 'sh600000,B') },
      file: 'ashare/symbols.csv',
      line: 3,
    },
    {
      name: 'a duplicate fundamentals symbol+date',
      files: {
        'ashare/klines.csv': GOOD_KLINES,
        'ashare/fundamentals.csv': csv('symbol,date,pe_ratio', 'sh600000,2024-01-02,1', 'sh600000,2024-01-02,2'),
      },
      file: 'ashare/fundamentals.csv',
      line: 3,
    },
    {
      name: 'an unknown macro indicator',
      files: { 'macro.csv': csv('indicator,date,key,value', 'gdp,2024-03-31,GDP_GDP,1', 'm2,2024-03-31,M2,1') },
      file: 'macro.csv',
      line: 3,
    },
    {
      name: 'a row with too few cells',
      files: {
        'ashare/klines.csv': csv(
          KLINE_HEADER,
          'sh600000,2024-01-02,10,11,9',
          'sh600000,2024-01-03,10,11,9,10.5,100,1050,1',
        ),
      },
      file: 'ashare/klines.csv',
      line: 2,
    },
    {
      name: 'a bad row after a blank line (physical lines are counted)',
      files: {
        'ashare/klines.csv': csv(
          KLINE_HEADER,
          'sh600000,2024-01-02,10,11,9,10.5,100,1050,1',
          '',
          'sh600000,2024-01-03,10,11,9,x,100,1050,1',
        ),
      },
      file: 'ashare/klines.csv',
      line: 4,
    },
    {
      name: 'a bad row in a gzip file',
      files: {
        'ashare/klines.csv.gz': csv(
          KLINE_HEADER,
          'sh600000,2024-01-02,10,11,9,10.5,100,1050,1',
          'sh600000,2024-01-03,10,11,9,10.5,100,1050,x',
        ),
      },
      file: 'ashare/klines.csv.gz',
      line: 3,
    },
    {
      name: 'both klines.csv and klines.csv.gz',
      files: { 'ashare/klines.csv': GOOD_KLINES, 'ashare/klines.csv.gz': GOOD_KLINES },
      file: 'ashare/klines.csv',
      line: 0,
    },
    { name: 'an empty klines.csv', files: { 'ashare/klines.csv': '' }, file: 'ashare/klines.csv', line: 1 },
    {
      name: 'a manifest that is not JSON',
      files: { 'ashare/klines.csv': GOOD_KLINES, 'manifest.json': '{"id": ' },
      file: 'manifest.json',
      line: 0,
    },
  ];
  for (const c of cases) {
    test(`rejects ${c.name} at ${c.file}${c.line > 0 ? `:${c.line}` : ''}`, async () => {
      const error = await rejection(c.files);
      assert.equal(error.file, c.file, `file named: ${error.message}`);
      assert.equal(error.line, c.line, `line named: ${error.message}`);
      assert.ok(
        error.message.startsWith(c.line > 0 ? `${c.file}:${c.line}: ` : `${c.file}: `),
        `message reads file:line: reason, got ${error.message}`,
      );
    });
  }

  test('a corrupt gzip file is rejected naming the file', async () => {
    const folder = await writeSnapshotFolder(join(root, `s${counter++}`), {
      'ashare/symbols.csv': csv('symbol,name', 'sh600000,A'),
    });
    const { writeFile } = await import('node:fs/promises');
    await writeFile(join(folder, 'ashare/klines.csv.gz'), Buffer.from('not gzip at all'));
    await assert.rejects(
      readSnapshot(folder),
      (error: unknown) => error instanceof SnapshotError && error.file === 'ashare/klines.csv.gz',
    );
  });

  test('the duplicate message names the first occurrence too', async () => {
    const error = await rejection({
      'ashare/klines.csv': csv(
        KLINE_HEADER,
        'sh600000,2024-01-02,10,11,9,10.5,100,1050,1',
        'sz000001,2024-01-02,10,11,9,10.5,100,1050,1',
        'sh600000,2024-01-02,10,11,9,10.5,100,1050,1',
      ),
    });
    assert.equal(error.line, 4);
    assert.match(error.reason, /sh600000 on 2024-01-02.*line 2/);
  });
});
