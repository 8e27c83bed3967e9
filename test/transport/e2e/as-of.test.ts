// `as_of=D` answers exactly what a server loaded with the same snapshot cut at D
// (every row dated after D removed, and symbols with no row left) answers without it: detail,
// batch detail and screens with bounds and sorts, for days chosen from the data itself.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';
import { FIXTURE } from '../../helpers/fixture-copy.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

const run = promisify(execFile);
const DEMO_CLI = fileURLToPath(new URL('../../../loaders/demo/cli.js', import.meta.url));

const MARKETS = ['ashare', 'hkstock', 'usstock', 'crypto', 'indices', 'etfs'] as const;
const DAY_MS = 86_400_000;
const iso = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/** A CSV's header, data lines and where its symbol and date columns are (found by name, as the loader does). */
interface Lines {
  header: string;
  lines: string[];
  symbolAt: number;
  dateAt: number;
}

/** Symbol, date and the cells before them are never quoted in these files: a plain split finds them. */
async function readLines(path: string): Promise<Lines | null> {
  const text = await readFile(path, 'utf8').catch(() => null);
  if (text === null) return null;
  const [header, ...lines] = text.split('\n').filter((l) => l !== '');
  const names = header.split(',').map((n) => n.trim().toLowerCase());
  return { header, lines, symbolAt: names.indexOf('symbol'), dateAt: names.indexOf('date') };
}
const cell = (line: string, n: number): string => line.split(',', n + 1)[n];
const symbolOf = (c: Lines, line: string): string => cell(line, c.symbolAt);
/** A row's date as YYYY-MM-DD (snapshots may write YYYYMMDD), which compares as text. */
const dateOf = (c: Lines, line: string): string => cell(line, c.dateAt).replace(/^(\d{4})(\d{2})(\d{2})$/, '$1-$2-$3');

/** `source` as a snapshot folder cut at `day`: rows dated after it gone, then symbols and markets left without a row. */
async function cutFolder(source: string, dir: string, day: string): Promise<void> {
  for (const market of MARKETS) {
    const klines = await readLines(join(source, market, 'klines.csv'));
    if (klines === null) continue;
    const fundamentals = (await readLines(join(source, market, 'fundamentals.csv'))) ?? {
      header: 'symbol,date',
      lines: [],
      symbolAt: 0,
      dateAt: 1,
    };
    const k = klines.lines.filter((l) => dateOf(klines, l) <= day);
    const f = fundamentals.lines.filter((l) => dateOf(fundamentals, l) <= day);
    if (k.length === 0 && f.length === 0) continue; // no row by then: no folder
    const present = new Set([...k.map((l) => symbolOf(klines, l)), ...f.map((l) => symbolOf(fundamentals, l))]);
    const symbols = (await readLines(join(source, market, 'symbols.csv'))) ?? {
      header: 'symbol,name',
      lines: [],
      symbolAt: 0,
      dateAt: -1,
    };
    await mkdir(join(dir, market), { recursive: true });
    const write = (name: string, header: string, lines: string[]): Promise<void> =>
      writeFile(join(dir, market, name), `${[header, ...lines].join('\n')}\n`);
    await write('klines.csv', klines.header, k);
    await write('fundamentals.csv', fundamentals.header, f);
    await write(
      'symbols.csv',
      symbols.header,
      symbols.lines.filter((l) => present.has(symbolOf(symbols, l))),
    );
  }
  await writeFile(join(dir, 'manifest.json'), `{"id":"cut-${day}"}`);
}

/** Days worth checking, found in `source`'s ashare K-lines. */
async function chosenDays(source: string): Promise<Record<string, string>> {
  const klines = (await readLines(join(source, 'ashare', 'klines.csv')))!;
  const adjAt = klines.header.split(',').indexOf('adj_factor');
  const rows = klines.lines.map((l) => [symbolOf(klines, l), dateOf(klines, l), cell(l, adjAt)]);
  const dates = [...new Set(rows.map((r) => r[1]))].sort();
  const bySymbol = new Map<string, string[][]>();
  for (const r of rows) bySymbol.set(r[0], [...(bySymbol.get(r[0]) ?? []), r]);
  let split = '';
  let suspended = '';
  for (const list of bySymbol.values()) {
    list.sort((a, b) => (a[1] < b[1] ? -1 : 1));
    // A split: the first row whose adj_factor differs from the symbol's row before.
    for (let i = 1; i < list.length && split === ''; i++) if (list[i][2] !== list[i - 1][2]) split = list[i][1];
    // A suspension: a market trading day inside the symbol's span on which it has no row.
    const own = new Set(list.map((r) => r[1]));
    suspended ||= dates.find((d) => d > list[0][1] && d < list[list.length - 1][1] && !own.has(d)) ?? '';
  }
  let saturday = Date.parse(dates[Math.floor(dates.length / 2)]);
  while (new Date(saturday).getUTCDay() !== 6) saturday += DAY_MS;
  const first = Date.parse(dates[0]);
  const days: Record<string, string> = {
    'a split day': split,
    'a day a symbol is suspended': suspended,
    'a Saturday': iso(saturday),
    "the day before the market's first row": iso(first - DAY_MS),
    "the market's first day": dates[0],
    'the last day but one': dates[dates.length - 2],
  };
  return Object.fromEntries(Object.entries(days).filter(([, day]) => day !== ''));
}

/** Screen queries: bounds, sorts, all fields, and a page with more after it (a `Link`). */
const SCREENS = [
  'limit=100',
  'limit=100&sort=pe_ratio&order=asc',
  'limit=100&sort=total_market_cap&min_close=1&max_close=500',
  'limit=100&sort=chg_20d&min_pe_ratio=0&max_pe_ratio=50&fields=*',
  'sort=ma5&order=asc&limit=2&offset=1',
];

/** The parts of an answer that must agree (the data version differs between two servers, and the request id). */
const comparable = (r: { status: number; headers: Record<string, unknown>; text: string; body: unknown }): unknown => ({
  status: r.status,
  type: r.headers['content-type'],
  body: r.status === 200 ? r.body : (r.body as { code?: string } | undefined)?.code,
});

/** The suite runs once with tables derived inline and once on a kernel pool of one worker (every market large enough for it). */
const MODES = [
  { name: 'inline', server: { pool: false } },
  { name: 'on the kernel pool', server: { pool: true, minScreenRows: 1_000_000, minAsOfSymbols: 0 } },
] as const;

let full: TestServer;
let work: Awaited<ReturnType<typeof tempDir>>;
before(async () => {
  full = await startTestServer();
  work = await tempDir('mdq-as-of-');
});
after(async () => {
  await full.close();
  await work.cleanup();
});

/** Screens compared that had a next page (a `Link`): the paging must have been exercised. */
let pagedScreens = 0;

/** A request with the internal key (no rate limit: a day's checks make hundreds). */
const get = (server: TestServer, path: string): ReturnType<TestServer['get']> =>
  server.get(path, { key: server.keys.internal });

/** Every check of one day: detail of every symbol, a batch of all, and screens, as_of against the cut server. */
async function assertSameAsCut(server: TestServer, source: string, day: string): Promise<void> {
  const folder = join(work.path, `${source.length}-${day}-${Math.random().toString(36).slice(2)}`);
  await mkdir(folder, { recursive: true });
  await cutFolder(source, folder, day);
  const cut = await startTestServer({ snapshot: folder });
  try {
    for (const market of MARKETS) {
      const symbols = server.dataset.markets[market].symbols.codes;
      if (symbols.length === 0) continue;
      for (const symbol of symbols) {
        const [got, want] = await Promise.all([
          get(server, `/api/v1/${market}/detail/${symbol}?as_of=${day}`),
          get(cut, `/api/v1/${market}/detail/${symbol}`),
        ]);
        assert.deepEqual(comparable(got), comparable(want), `${market}/detail/${symbol}`);
      }
      const batch = `/api/v1/${market}/detail?symbols=${symbols.slice(0, 50).join(',')}`;
      const [got, want] = await Promise.all([get(server, `${batch}&as_of=${day}`), get(cut, batch)]);
      assert.deepEqual(comparable(got), comparable(want), `${market} batch detail`);
      for (const query of SCREENS) {
        const path = `/api/v1/${market}/screen?${query}`;
        const [got, want] = await Promise.all([get(server, `${path}&as_of=${day}`), get(cut, path)]);
        assert.deepEqual(comparable(got), comparable(want), `${market} screen ${query}`);
        assert.equal(got.status, 200, `${market} screen ${query}`);
        if (want.headers.link === undefined) assert.equal(got.headers.link, undefined);
        else
          assert.equal(
            got.headers.link,
            String(want.headers.link).replace('&offset=', `&as_of=${day}&offset=`),
            'the next page link keeps as_of',
          );
        if (want.headers.link !== undefined) pagedScreens++;
      }
    }
  } finally {
    await cut.close();
  }
}

for (const mode of MODES) {
  describe(`as_of=D equals the fixture cut at D (${mode.name})`, async () => {
    const days = await chosenDays(FIXTURE);
    let server: TestServer;
    before(async () => (server = await startTestServer(mode.server)));
    after(() => server.close());
    test('the fixture has each kind of day but a suspension', () => assert.deepEqual(Object.keys(days).length, 5));
    for (const [what, day] of Object.entries(days))
      test(`${what} (${day})`, () => assertSameAsCut(server, FIXTURE, day));
  });

  describe(`as_of=D equals a generated demo (six markets, splits, suspensions) cut at D (${mode.name})`, async () => {
    const dir = await tempDir('mdq-as-of-demo-');
    const demo = join(dir.path, 'demo');
    await run(process.execPath, [DEMO_CLI, '--out', demo, '--scale', '0.01', '--years', '2']);
    const days = await chosenDays(demo);
    let server: TestServer;
    before(async () => (server = await startTestServer({ snapshot: demo, ...mode.server })));
    after(async () => {
      await server.close();
      await dir.cleanup();
    });
    test('the demo has every kind of day', () => assert.deepEqual(Object.keys(days).length, 6));
    for (const [what, day] of Object.entries(days)) test(`${what} (${day})`, () => assertSameAsCut(server, demo, day));
    test('screens with a next page were among those compared', () =>
      assert.ok(pagedScreens > 0, `${pagedScreens} paged screens`));
    if (mode.server.pool)
      test('the tables were derived on the pool', () =>
        assert.ok(server.kernels!.completed >= Object.keys(days).length, `${server.kernels!.completed} pool tasks`));
  });
}

describe('as_of edge cases', () => {
  test('on or after the latest row, as_of answers what no as_of answers', async () => {
    for (const path of [
      '/api/v1/ashare/detail/sh600001',
      '/api/v1/ashare/screen?sort=pe_ratio',
      '/api/v1/usstock/detail?symbols=usAAPL,usMSFT',
    ]) {
      const plain = await full.get(path);
      for (const day of ['2025-03-14', '2031-01-01']) {
        const got = await full.get(`${path}${path.includes('?') ? '&' : '?'}as_of=${day}`);
        assert.deepEqual(comparable(got), comparable(plain), `${path} as_of=${day}`);
      }
    }
  });

  test('a malformed as_of is a 400 naming it, YYYYMMDD is the same day; K-line routes do not take it', async () => {
    for (const bad of ['2024-02-30', '20240230', '2024012', 'yesterday', '', '2024-1-5']) {
      const got = await full.get(`/api/v1/ashare/screen?as_of=${bad}`);
      assert.equal(got.status, 400, bad);
      assert.equal(got.body.code, 'invalid_parameter');
      assert.equal(got.body.param, 'as_of');
    }
    const compact = await full.get('/api/v1/ashare/screen?as_of=20240603');
    assert.deepEqual(
      compact.body,
      (await full.get('/api/v1/ashare/screen?as_of=2024-06-03')).body,
      'YYYYMMDD reads as YYYY-MM-DD',
    );
    const klines = await full.get('/api/v1/ashare/klines/sh600001?as_of=2024-06-03');
    assert.equal(klines.status, 400);
    assert.equal(klines.body.param, 'as_of');
  });

  test("before the market's first day: an empty screen, and a 404 saying the symbol had no row yet", async () => {
    const screen = await full.get('/api/v1/ashare/screen?as_of=2000-01-03');
    assert.equal(screen.status, 200);
    assert.equal(screen.body.total, 0);
    assert.deepEqual(screen.body.data, []);
    const detail = await full.get('/api/v1/ashare/detail/sh600001?as_of=2000-01-03');
    assert.equal(detail.status, 404);
    assert.equal(detail.body.code, 'unknown_symbol');
    assert.equal(detail.body.detail, "symbol: 'sh600001' has no row on or before 2000-01-03 in ashare");
  });

  test('every format answers an as_of detail with the same values', async () => {
    const json = await full.get('/api/v1/ashare/detail/sh600001?as_of=2024-06-03');
    const csv = await full.get('/api/v1/ashare/detail/sh600001?as_of=2024-06-03&format=csv');
    assert.equal(json.status, 200);
    assert.equal(json.body.data.date <= '2024-06-03', true);
    const [header, row] = csv.text.trim().split('\n');
    const close = row.split(',')[header.split(',').indexOf('close')];
    assert.equal(Number(close), json.body.data.close);
  });
});
