// The demo generator: deterministic, in the snapshot format, and every row valid for the loader.

import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateDemoSnapshot } from '../../../loaders/demo/index.js';
import { planMarket } from '../../../loaders/demo/plan.js';
import { FUNDAMENTAL_COLUMNS, MACRO_KEYS, SNAPSHOT_COLUMNS } from '../../../engine/columns.js';
import { MARKETS, type Market } from '../../../engine/markets.js';

const SIZES: Record<Market, number> = {
  ashare: 3000,
  hkstock: 1000,
  usstock: 2000,
  crypto: 100,
  indices: 15,
  etfs: 11,
};
const SHAPES: Record<Market, RegExp> = {
  ashare: /^(sh|sz)\d{6}$/,
  hkstock: /^hk\d{5}$/,
  usstock: /^us[A-Z]{1,5}$/,
  crypto: /^[A-Z0-9]{2,}(USDT|BTC|ETH)$/,
  indices: /^(sh|sz)\d{6}$|^hk[A-Z]+$/,
  etfs: /^sh\d{6}$/,
};
const TINY = { symbolScale: 0.01, years: 1, progress: false } as const;
const DAY = 86_400_000;

interface Csv {
  header: string[];
  rows: string[][];
}
function readCsv(path: string): Csv {
  const lines = readFileSync(path, 'utf8').split('\n');
  assert.equal(lines.pop(), '', `${path} ends with a newline`);
  const [head, ...body] = lines.map((l) => l.split(','));
  return { header: head, rows: body };
}

/** Every file under `dir` → its bytes, by relative path. */
function snapshotFiles(dir: string, prefix = ''): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) for (const [k, v] of snapshotFiles(path, `${prefix}${name}/`)) out.set(k, v);
    else out.set(prefix + name, readFileSync(path));
  }
  return out;
}

const work = mkdtempSync(join(tmpdir(), 'mdq-demo-test-'));
const tiny = join(work, 'tiny');
const wider = join(work, 'wider');
before(async () => {
  await generateDemoSnapshot(tiny, TINY);
  await generateDemoSnapshot(wider, { symbolScale: 0.05, years: 3, progress: false });
});
after(() => rmSync(work, { recursive: true, force: true }));

const klines = (dir: string, m: Market): Csv => readCsv(join(dir, m, 'klines.csv'));
const col = (csv: Csv, name: string): number => csv.header.indexOf(name);

describe('determinism', () => {
  test('the same seed and options give byte-identical files', async () => {
    const again = join(work, 'again');
    const result = await generateDemoSnapshot(again, TINY);
    assert.ok(result.rows > 0 && result.seconds >= 0, 'reports rows and seconds');
    assert.deepEqual(snapshotFiles(again), snapshotFiles(tiny));
  });

  test('another seed gives different prices', async () => {
    const other = join(work, 'other');
    await generateDemoSnapshot(other, { ...TINY, seed: 7 });
    assert.notDeepEqual(
      readFileSync(join(other, 'ashare', 'klines.csv')),
      readFileSync(join(tiny, 'ashare', 'klines.csv')),
    );
  });

  test('a rerun replaces the folder whole and clears what a killed run left behind', async () => {
    const out = join(work, 'rerun');
    const deadPid = spawnSync(process.execPath, ['-e', '']).pid; // exited: its pid names no live run
    mkdirSync(out);
    writeFileSync(join(out, 'stale.txt'), 'from an older snapshot');
    mkdirSync(`${out}.tmp-${deadPid}`);
    await generateDemoSnapshot(out, TINY);
    assert.ok(!existsSync(join(out, 'stale.txt')), 'the old folder is replaced, not merged');
    assert.ok(!existsSync(`${out}.tmp-${deadPid}`), "a dead run's temp folder is removed");
    assert.deepEqual(snapshotFiles(out), snapshotFiles(tiny));
  });

  test('no temp or old sibling folder is left beside the output', () => {
    assert.deepEqual(
      readdirSync(work).filter((n) => n.includes('.tmp-') || n.includes('.old-')),
      [],
    );
  });
});

describe('layout', () => {
  test('every market has symbols, klines and fundamentals with the format headers', () => {
    for (const m of MARKETS) {
      assert.deepEqual(
        readCsv(join(tiny, m, 'symbols.csv')).header,
        ['symbol', 'name', 'market_name', 'market_type'],
        m,
      );
      assert.deepEqual(
        klines(tiny, m).header,
        ['symbol', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount', 'adj_factor'],
        m,
      );
      const applies = FUNDAMENTAL_COLUMNS.filter(
        (c) => SNAPSHOT_COLUMNS.find((s) => s.name === c)?.only?.includes(m) ?? true,
      );
      assert.deepEqual(readCsv(join(tiny, m, 'fundamentals.csv')).header, ['symbol', 'date', ...applies], m);
    }
    assert.deepEqual(readCsv(join(tiny, 'macro.csv')).header, ['indicator', 'date', 'key', 'value']);
  });

  test('the manifest names the end date and says the data is synthetic', () => {
    const manifest = JSON.parse(readFileSync(join(tiny, 'manifest.json'), 'utf8'));
    assert.equal(manifest.id, 'demo-2026-10-30');
    assert.match(manifest.note, /SYNTHETIC/);
    assert.equal(typeof manifest.created, 'string');
  });

  test('symbol counts scale down to at least one per market and keep each market shape', () => {
    for (const m of MARKETS) {
      const symbols = readCsv(join(tiny, m, 'symbols.csv')).rows.map((r) => r[0]);
      assert.equal(symbols.length, Math.max(1, Math.round(SIZES[m] * TINY.symbolScale)), m);
      for (const s of symbols) assert.match(s, SHAPES[m]);
    }
  });

  test('at full scale every market has the spec size, unique symbols of its shape and named rows', () => {
    for (const m of MARKETS) {
      const plan = planMarket(m, { seed: 20261030, symbolScale: 1, years: 10 });
      const symbols = plan.symbols.map((s) => s.info.symbol);
      assert.equal(symbols.length, SIZES[m], m);
      assert.equal(
        new Set(symbols.map((s) => s.toLowerCase())).size,
        symbols.length,
        `${m} symbols unique, ignoring case`,
      );
      for (const s of plan.symbols) {
        assert.match(s.info.symbol, SHAPES[m]);
        assert.ok(s.info.name && s.info.marketName && s.info.marketType && !/[,"\n]/.test(s.info.name), s.info.symbol);
      }
    }
  });

  test('at full scale some histories are short (under 60 rows, a couple under 5)', () => {
    const rows = MARKETS.flatMap((m) =>
      planMarket(m, { seed: 20261030, symbolScale: 1, years: 10 }).symbols.map((s) => s.rows),
    );
    assert.ok(rows.filter((r) => r < 60).length >= 10, 'several symbols under 60 rows');
    assert.ok(rows.filter((r) => r < 5).length >= 2, 'a couple under 5 rows');
  });
});

describe('K-line rows', () => {
  test('no duplicate symbol+date and every symbol is listed in symbols.csv', () => {
    for (const dir of [tiny, wider])
      for (const m of MARKETS) {
        const listed = new Set(readCsv(join(dir, m, 'symbols.csv')).rows.map((r) => r[0]));
        const seen = new Set<string>();
        for (const r of klines(dir, m).rows) {
          assert.ok(listed.has(r[0]), `${r[0]} listed`);
          const key = `${r[0]} ${r[1]}`;
          assert.ok(!seen.has(key), `duplicate ${key}`);
          seen.add(key);
        }
      }
  });

  test('prices are positive and consistent, volume and amount non-negative', () => {
    for (const dir of [tiny, wider])
      for (const m of MARKETS) {
        for (const r of klines(dir, m).rows) {
          const [open, high, low, close, volume, amount] = r.slice(2, 8).map(Number);
          assert.match(r[1], /^\d{4}-\d{2}-\d{2}$/);
          assert.ok(low > 0 && low <= Math.min(open, close) && Math.max(open, close) <= high, `OHLC of ${r.join(',')}`);
          assert.ok(Number.isInteger(volume) && volume >= 0 && amount >= 0, `volume/amount of ${r.join(',')}`);
          if (m !== 'crypto') assert.match(r[5], /^\d+\.\d{2}$/, 'stock prices have 2 decimals');
        }
      }
  });

  test('crypto trades every calendar day; other markets never on a weekend', () => {
    for (const m of MARKETS) {
      const csv = klines(tiny, m);
      for (let i = 0; i < csv.rows.length; i++) {
        const t = Date.parse(`${csv.rows[i][1]}T00:00:00Z`);
        if (m === 'crypto') {
          if (i > 0 && csv.rows[i - 1][0] === csv.rows[i][0])
            assert.equal(t - Date.parse(`${csv.rows[i - 1][1]}T00:00:00Z`), DAY);
        } else {
          assert.ok(new Date(t).getUTCDay() % 6 !== 0, `${m} ${csv.rows[i].join(',')} on a weekend`);
        }
      }
      assert.equal(csv.rows.at(-1)?.[1], '2026-10-30', `${m} history ends on the fixed end date`);
    }
  });

  test('adj_factor starts at 1, never decreases, and steps up on dividends or splits', () => {
    let steps = 0;
    for (const m of MARKETS) {
      const csv = klines(wider, m);
      const [c, a] = [col(csv, 'close'), col(csv, 'adj_factor')];
      csv.rows.forEach((r, i) => {
        const prev = csv.rows[i - 1];
        if (!prev || prev[0] !== r[0]) return assert.equal(Number(r[a]), 1, `${r[0]} starts at 1`);
        assert.ok(Number(r[a]) >= Number(prev[a]), `${r[0]} ${r[1]} adj_factor non-decreasing`);
        if (Number(r[a]) > Number(prev[a])) {
          steps++;
          // The hfq close stays continuous across the ex-date (only the unadjusted close drops);
          // after a suspension the move may be larger, so only adjacent trading days are checked.
          if (Date.parse(r[1]) - Date.parse(prev[1]) > 5 * DAY) return;
          const hfqMove = Math.log((Number(r[c]) * Number(r[a])) / (Number(prev[c]) * Number(prev[a])));
          assert.ok(Math.abs(hfqMove) < 0.3, `${r[0]} ${r[1]} hfq close continuous (${hfqMove})`);
        }
        if (m === 'indices' || m === 'crypto') assert.equal(Number(r[a]), 1, `${m} keep adj_factor 1`);
      });
    }
    assert.ok(steps > 0, 'at least one dividend or split step');
  });
});

describe('fundamentals and macro', () => {
  test('each symbol has a fundamentals row per quarter end since its first K-line and one on its last day, some cells empty', () => {
    let cells = 0,
      empty = 0;
    for (const m of MARKETS) {
      const csv = readCsv(join(wider, m, 'fundamentals.csv'));
      const symbols = readCsv(join(wider, m, 'symbols.csv')).rows.map((r) => r[0]);
      assert.deepEqual([...new Set(csv.rows.map((r) => r[0]))], symbols, `${m}: every symbol has rows`);
      const firstKline = new Map<string, string>();
      for (const r of readCsv(join(wider, m, 'klines.csv')).rows)
        if (!firstKline.has(r[0]) || r[1] < firstKline.get(r[0])!) firstKline.set(r[0], r[1]);
      for (const symbol of symbols) {
        const dates = csv.rows.filter((r) => r[0] === symbol).map((r) => r[1]);
        const quarterEnds: string[] = [];
        for (
          let d = new Date(`${firstKline.get(symbol)}T00:00:00Z`);
          d.toISOString().slice(0, 10) <= '2026-10-30';
          d = new Date(d.getTime() + DAY)
        ) {
          const next = new Date(d.getTime() + DAY);
          if (next.getUTCDate() === 1 && next.getUTCMonth() % 3 === 0) quarterEnds.push(d.toISOString().slice(0, 10));
        }
        assert.deepEqual(
          dates,
          [...quarterEnds.filter((d) => d < '2026-10-30'), '2026-10-30'],
          `${m} ${symbol}: a row per quarter end, and one on the last day`,
        );
      }
      for (const r of csv.rows) {
        assert.equal(r.length, csv.header.length);
        assert.ok(r[1] <= '2026-10-30', 'dated within the history');
        for (const v of r.slice(2)) cells++, v === '' ? empty++ : assert.ok(Number.isFinite(Number(v)), v);
      }
    }
    assert.ok(empty > 0.03 * cells, 'some cells are empty');
  });

  test("avg_price lies within the low and high of the symbol's K-line row that day", () => {
    let checked = 0;
    for (const m of MARKETS) {
      const csv = readCsv(join(wider, m, 'fundamentals.csv'));
      const at = csv.header.indexOf('avg_price');
      if (at < 0) continue;
      const bars = new Map<string, [low: number, high: number]>();
      for (const r of readCsv(join(wider, m, 'klines.csv')).rows)
        bars.set(`${r[0]},${r[1]}`, [Number(r[4]), Number(r[3])]);
      for (const r of csv.rows) {
        const bar = bars.get(`${r[0]},${r[1]}`);
        if (bar === undefined || r[at] === '') continue; // a quarter end that was no trading day
        const avg = Number(r[at]);
        assert.ok(
          avg >= bar[0] && avg <= bar[1],
          `${m} ${r[0]} ${r[1]}: avg_price ${avg} within [${bar[0]}, ${bar[1]}]`,
        );
        checked++;
      }
    }
    assert.ok(checked > 100, `${checked} rows checked`);
  });

  test('macro has gdp quarterly, cpi_ppi and pmi monthly, each with exactly its keys', () => {
    const rows = readCsv(join(wider, 'macro.csv')).rows;
    for (const indicator of ['gdp', 'cpi_ppi', 'pmi'] as const) {
      const mine = rows.filter((r) => r[0] === indicator);
      const dates = [...new Set(mine.map((r) => r[1]))];
      assert.ok(dates.length >= (indicator === 'gdp' ? 8 : 30), `${indicator} has a history`);
      for (const d of dates) {
        assert.deepEqual(
          mine.filter((r) => r[1] === d).map((r) => r[2]),
          MACRO_KEYS[indicator],
          `${indicator} ${d} keys`,
        );
        const next = new Date(Date.parse(`${d}T00:00:00Z`) + DAY);
        assert.equal(next.getUTCDate(), 1, `${d} is a period end`);
        if (indicator === 'gdp') assert.equal(next.getUTCMonth() % 3, 0, `${d} is a quarter end`);
      }
      for (const r of mine) assert.ok(Number.isFinite(Number(r[3])) && r[3] !== '', `${r.join(',')} numeric`);
    }
  });
});
