// Rendered K-line row text equals JSON.stringify of the row objects, for every window, adjustment and field set.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { generateDemoSnapshot } from '../../../loaders/demo/index.js';
import { KLINE_FIELDS, type KlineField } from '../../../engine/columns.js';
import type { Dataset } from '../../../engine/dataset/dataset.js';
import type { MarketData } from '../../../engine/dataset/dataset.js';
import { type AdjustMode, adjustedSlice } from '../../../engine/kernels/adjust.js';
import { klineWindow, type WindowQuery } from '../../../engine/kernels/kline-window.js';
import { type KlineAsk, klineDay, klineQuery, type KlineSlice, type Period } from '../../../engine/queries/klines.js';
import { storeEdition } from '../../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../../loaders/edition/stored-editions.js';
import { KlineTextCache } from '../../../transport/caches/kline-text.js';
import { klineRows } from '../../../transport/serialise/rows.js';
import { tempDir } from '../../helpers/snapshot-folder.js';

let dataset: Dataset;
let cleanup: () => Promise<void>;

before(async () => {
  const dir = await tempDir();
  cleanup = dir.cleanup;
  // ~2.5 years: symbols with 600+ rows, so windows cross the 256-row chunks.
  await generateDemoSnapshot(join(dir.path, 'demo'), { symbolScale: 0.004, years: 2.5, progress: false });
  await storeEdition(join(dir.path, 'demo'), join(dir.path, 'state'), { threads: 0 });
  dataset = (await openCurrentDataset(join(dir.path, 'state')))!;
});
after(() => cleanup());

/** The reference rows of a window, from the kernels alone: its rows, prices adjusted to the symbol's latest factor. */
function referenceSlice(
  m: MarketData,
  i: number,
  q: WindowQuery,
  adj: AdjustMode,
  fields: readonly KlineField[],
): KlineSlice {
  const k = m.klines;
  const { from, to, total } = klineWindow(k.date, k.offsets[i], k.offsets[i + 1], q);
  const values: KlineSlice['values'] = {};
  for (const f of fields)
    values[f] =
      adj !== 'bfq' && ['open', 'high', 'low', 'close'].includes(f)
        ? adjustedSlice(k[f], k.adj_factor, from, to, adj, k.offsets[i + 1] - 1)
        : k[f].subarray(from, to);
  return {
    symbol: i,
    count: to - from,
    total,
    date: k.date.subarray(from, to),
    adjFactor: k.adj_factor.subarray(from, to),
    values,
  };
}

const ask = (window: WindowQuery, adj: AdjustMode, fields: KlineField[], period: Period = 'day'): KlineAsk => ({
  window,
  adj,
  period,
  fields,
});
const WHOLE = { start: null, end: null, offset: 0, limit: Number.MAX_SAFE_INTEGER };

const FIELD_SETS: KlineField[][] = [
  [...KLINE_FIELDS],
  ['close'],
  ['open', 'close', 'volume'],
  ['high', 'low', 'amount'],
];
const WINDOWS = [
  { start: null, end: null, offset: 0, limit: 100 },
  { start: null, end: null, offset: 200, limit: 500 },
  { start: null, end: null, offset: 0, limit: 5000 },
  { start: 0, end: null, offset: 250, limit: 10 },
  { start: 0, end: null, offset: 255, limit: 2 },
  { start: 0, end: null, offset: 0, limit: 1 },
];

test('every market, symbol sample, window, adjustment and field set renders the reference JSON exactly', () => {
  const cache = new KlineTextCache(1 << 20); // small: evictions happen during the test too
  let compared = 0;
  for (const m of Object.values(dataset.markets)) {
    for (let i = 0; i < m.symbols.size; i += Math.max(1, Math.floor(m.symbols.size / 4))) {
      for (const adj of ['bfq', 'qfq', 'hfq'] as AdjustMode[]) {
        for (const fields of FIELD_SETS) {
          for (const q of WINDOWS) {
            const expected = JSON.stringify(
              klineRows(referenceSlice(m, i, q, adj, fields), m.symbols.codes[i], fields),
            ).slice(1, -1);
            const r = klineQuery(m, i, ask(q, adj, fields));
            const pieces: (string | Buffer)[] = [];
            cache.rows(r, r.windows[0], pieces);
            const text = Buffer.concat(pieces.map((p) => Buffer.from(p))).toString();
            assert.equal(
              text,
              expected,
              `${m.market} ${m.symbols.codes[i]} ${adj} ${fields.join(',')} ${JSON.stringify(q)}`,
            );
            compared++;
          }
        }
      }
    }
  }
  assert.ok(compared > 500, `compared ${compared} windows`);
});

test('a symbol spanning several chunks is rendered whole and in order', () => {
  const m = dataset.markets.crypto; // every calendar day: the longest histories
  const i = 0;
  const rows = m.klines.offsets[i + 1] - m.klines.offsets[i];
  assert.ok(rows > 600, `crypto symbol has ${rows} rows`);
  const pieces: Buffer[] = [];
  const r = klineQuery(m, i, ask(WHOLE, 'bfq', [...KLINE_FIELDS]));
  assert.deepEqual([r.windows[0].from, r.windows[0].to], [m.klines.offsets[i], m.klines.offsets[i + 1]]);
  new KlineTextCache(1 << 30).rows(r, r.windows[0], pieces);
  assert.ok(pieces.length >= 3, `the history spans ${pieces.length} chunks`);
  const text = Buffer.concat(pieces).toString();
  const parsed = JSON.parse(`[${text}]`) as { date: string }[];
  assert.equal(parsed.length, rows);
  assert.deepEqual(
    parsed.map((r) => r.date),
    [...parsed.map((r) => r.date)].sort(),
  );
});

test("a day's batch rows written later make room within the budget, though the day's entry is the oldest", () => {
  const m = dataset.markets.ashare;
  const day = m.lastDate!;
  const rowOf = (i: number) => {
    const end = m.klines.offsets[i + 1];
    return { i, from: end - 1, to: end };
  };
  const symbols = Array.from({ length: m.symbols.size }, (_, i) => i).filter(
    (i) => m.klines.date[m.klines.offsets[i + 1] - 1] === day,
  );
  assert.ok(symbols.length >= 6, 'symbols with a row on the latest day');
  const close = ['close'] as KlineField[];
  /** The day's row of one symbol (its entry made, the oldest), yearly bars of every symbol read twice (a second chance each), then the day's rows of all. */
  const fill = (cache: KlineTextCache): { before: number; text: string } => {
    const render = (windows: { i: number; from: number; to: number }[]): string => {
      const pieces: (string | Buffer)[] = [];
      const r = klineDay(
        m,
        windows.map((w) => w.i),
        day,
        ask({ start: day, end: day, offset: 0, limit: 1 }, 'bfq', close),
      );
      assert.deepEqual(
        r.windows.map((w) => [w.from, w.to]),
        windows.map((w) => [w.from, w.to]),
        "each symbol's row of the day",
      );
      cache.daySegments(r, pieces);
      return String(pieces[0]);
    };
    render([rowOf(symbols[0])]);
    for (const _ of [1, 2])
      for (let i = 0; i < m.symbols.size; i++) {
        const r = klineQuery(m, i, ask(WHOLE, 'bfq', close, 'year'));
        cache.rows(r, r.windows[0], []);
      }
    const before = cache.bytes;
    return { before, text: render(symbols.map(rowOf)) };
  };
  const unbounded = new KlineTextCache(1 << 30);
  const { before: kept } = fill(unbounded);
  const grown = unbounded.bytes - kept;
  const budget = kept + Math.floor(grown / 2); // room for everything before the growth, not after
  const cache = new KlineTextCache(budget);
  const { before, text } = fill(cache);
  assert.equal(before, kept, 'nothing left before the growth');
  assert.ok(cache.bytes <= budget, `within ${budget} bytes after the growth: ${cache.bytes}`);
  const expected = symbols.map((i) => {
    const { from, to } = rowOf(i);
    const rows = klineRows(
      referenceSlice(m, i, { start: day, end: day, offset: 0, limit: 1 }, 'bfq', close),
      m.symbols.codes[i],
      close,
    );
    assert.equal(to - from, rows.length);
    return `${JSON.stringify(m.symbols.codes[i])}:${JSON.stringify(rows)}`;
  });
  assert.equal(text, expected.join(','), 'the rows, as the reference renders them');
});

test('a kept chunk is memory of its own, exactly its size', () => {
  const cache = new KlineTextCache(1 << 20);
  const m = dataset.markets.ashare;
  const end = m.klines.offsets[1];
  const pieces: Buffer[] = [];
  const r = klineQuery(m, 0, ask({ start: null, end: null, offset: 0, limit: 256 }, 'bfq', ['close']));
  assert.deepEqual([r.windows[0].from, r.windows[0].to], [end - 256, end]);
  cache.rows(r, r.windows[0], pieces); // the latest chunk, whole
  const [piece] = pieces;
  assert.equal(piece.byteOffset, 1, 'the chunk starts its memory (its first row after the leading comma)');
  assert.equal(piece.buffer.byteLength, 1 + piece.length, 'and ends it');
});
