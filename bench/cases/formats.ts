// The format cases as data: which answers the size table weighs, which bodies the level sweep compresses, and the client decode cases.

import { ByteBuffer } from 'flatbuffers';
import { type Table, tableFromIPC } from 'apache-arrow';
import { unpack } from 'msgpackr';
import { KLINE_FIELDS } from '../../engine/columns.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { type Format, FORMAT_NAMES } from '../../transport/answers/formats/index.js';
import type { Reply } from '../../transport/route.js';
import { fieldNames } from '../../transport/serialise/kline-json.js';
import { klinesShape } from '../../transport/shapes/klines.js';
import { klineRows } from '../../transport/serialise/rows.js';
import {
  type CaseContext,
  DETAIL,
  DETAIL_BATCH_50,
  KLINES_100_BFQ,
  KLINES_BATCH_50,
  MARKETS,
  SCREEN,
  SYMBOLS_SEARCH,
} from '../http/cases.js';
import { bodyOf, contextOf, offers, replyOf } from './answers.js';
import { type MicroCase, thousands, windowSlice } from './case.js';

/** One request whose answer is weighed or compressed: a name for the table and its path (the HTTP cases' where there is one). */
export interface Question {
  name: string;
  path(ctx: CaseContext): string;
}

/** Every answer class of the size table, in table order (ashare unless the path says otherwise). */
export const SIZE_QUESTIONS: Question[] = [
  { name: 'klines 100 rows', path: KLINES_100_BFQ.path },
  { name: 'klines 500 rows', path: ({ symbol }) => `/api/v1/ashare/klines/${encodeURIComponent(symbol)}?limit=500` },
  { name: 'klines batch 50×1d', path: KLINES_BATCH_50.path },
  { name: 'detail', path: DETAIL.path },
  { name: 'detail batch 50', path: DETAIL_BATCH_50.path },
  { name: 'screen 50 rows', path: SCREEN.path },
  { name: 'symbols search 50', path: SYMBOLS_SEARCH.path },
  { name: 'markets', path: MARKETS.path },
  { name: 'macro 100 rows', path: () => '/api/v1/macro' },
  { name: 'cross-section 500 rows', path: ({ date }) => `/api/v1/ashare/klines?date=${date}&limit=500` },
];

/** The JSON bodies the compression-level sweep compresses: a small and a large cached answer. */
export const LEVEL_QUESTIONS: Question[] = [
  { name: 'klines 100 rows', path: KLINES_100_BFQ.path },
  { name: 'screen 50 rows', path: SCREEN.path },
];

/** The answers of `questions` on `dataset`, computed in-process by the server's routes. */
export function repliesOf(dataset: Dataset, questions: Question[]): { q: Question; path: string; reply: Reply }[] {
  const ctx = contextOf(dataset, 'ashare');
  return questions.map((q) => {
    const path = q.path(ctx);
    return { q, path, reply: replyOf(dataset, path) };
  });
}

// ---- client decode ---------------------------------------------------------------------

/** Rows of the large decode case: more than one request answers (500 at most), as a client paging a history would hold. */
export const DECODE_BIG_ROWS = 5_000;

/** Numeric K-line columns in mdq.fbs's KlineColumns slot order after `date` (slot 0). */
const NUMERIC = [...KLINE_FIELDS, 'adj_factor'] as const;
/** Klines.columns is the 8th field of the Klines table (market, symbol, count, total, offset, limit, fields, columns). */
const KLINES_COLUMNS_SLOT = 7;
const vtableOffset = (slot: number): number => 4 + 2 * slot;

/** What every decode variant answers: the row count and the sum of each numeric column (null counts as NaN, as in a FlatBuffer). */
type Sums = number[];

function sumRows(rows: readonly Record<string, unknown>[]): Sums {
  const sums = NUMERIC.map(() => 0);
  for (const row of rows) {
    for (let k = 0; k < NUMERIC.length; k++) {
      const v = row[NUMERIC[k]];
      sums[k] += typeof v === 'number' ? v : NaN;
    }
  }
  return [rows.length, ...sums];
}

/**
 * The columns of a Klines FlatBuffer summed through the flatbuffers ByteBuffer: the root
 * table, its `columns` table, then each [double] vector's start and length (`__vector`,
 * `__vector_len`) read as a Float64Array over the same bytes, no copy. Doubles are 8-byte
 * aligned from the buffer's start, so the view needs `bytes` to start 8-aligned in its
 * ArrayBuffer; otherwise the column is copied out first.
 */
function sumFlatColumns(bytes: Uint8Array): Sums {
  const bb = new ByteBuffer(bytes);
  const root = bb.readInt32(bb.position()) + bb.position();
  const at = bb.__offset(root, vtableOffset(KLINES_COLUMNS_SLOT));
  if (at === 0) return [0, ...NUMERIC.map(() => 0)];
  const columns = bb.__indirect(root + at);
  const dateAt = bb.__offset(columns, vtableOffset(0));
  const out: Sums = [dateAt === 0 ? 0 : bb.__vector_len(columns + dateAt)];
  for (let k = 0; k < NUMERIC.length; k++) {
    const o = bb.__offset(columns, vtableOffset(k + 1));
    if (o === 0) {
      out.push(0); // not selected: no vector
      continue;
    }
    const start = bytes.byteOffset + bb.__vector(columns + o);
    const length = bb.__vector_len(columns + o);
    const values =
      start % 8 === 0
        ? new Float64Array(bytes.buffer, start, length)
        : new Float64Array(bytes.slice(start - bytes.byteOffset, start - bytes.byteOffset + 8 * length).buffer);
    let sum = 0;
    for (let i = 0; i < length; i++) sum += values[i];
    out.push(sum);
  }
  return out;
}

/** A body in an ArrayBuffer of its own (offset 0), as a client that reads a response into one buffer holds it. */
const own = (body: Buffer): Uint8Array => new Uint8Array(body);

/**
 * A Klines value of DECODE_BIG_ROWS rows, all fields, unadjusted, from crypto (the market
 * with the longest histories, ≈ 3,650 days): the longest history, then the latest rows of
 * the next longest until the count is reached, every row labelled with the first symbol.
 */
function bigKlinesValue(dataset: Dataset): { value: unknown; detail: string } {
  const m = dataset.markets.crypto;
  const fields = [...KLINE_FIELDS];
  const lengths = Array.from({ length: m.symbols.size }, (_, i) => ({
    i,
    rows: m.klines.offsets[i + 1] - m.klines.offsets[i],
  })).sort((a, b) => b.rows - a.rows || a.i - b.i);
  const code = m.symbols.codes[lengths[0]?.i ?? 0];
  const data: Record<string, unknown>[] = [];
  const parts: string[] = [];
  for (const { i, rows } of lengths) {
    const take = Math.min(rows, DECODE_BIG_ROWS - data.length);
    if (take <= 0) break;
    const slice = windowSlice(m, i, {
      window: { start: null, end: null, offset: 0, limit: take },
      adj: 'bfq',
      period: 'day',
      fields,
    });
    for (const row of klineRows(slice, code, fields)) data.push(row);
    parts.push(`${thousands(take)} of ${m.symbols.codes[i]}`);
  }
  const value = {
    market: m.market,
    symbol: code,
    count: data.length,
    total: data.length,
    offset: 0,
    limit: data.length,
    fields: fieldNames(fields),
    data,
  };
  return { value, detail: `crypto ${parts.join(' + ')} (its latest rows), as one symbol` };
}

/** The row count and each numeric column's sum of an Arrow K-lines answer (a null counts as NaN, as in a FlatBuffer). */
function sumArrowColumns(bytes: Uint8Array): Sums {
  const table = tableFromIPC(bytes) as Table;
  const sums = NUMERIC.map((name) => {
    const column = table.getChild(name);
    let sum = 0;
    for (let r = 0; r < table.numRows; r++) {
      const v = column?.get(r);
      sum += typeof v === 'number' ? v : NaN;
    }
    return sum;
  });
  return [table.numRows, ...sums];
}

/** The `count` field's slot in the root table of the shapes the encode cases render (mdq.fbs field order). */
const COUNT_SLOT: Readonly<Record<string, number>> = { klines: 2, crossSection: 3 };

/** The `count` of a FlatBuffer answer of `shape`, read through the flatbuffers ByteBuffer. */
function flatCount(shape: string, body: Uint8Array): number {
  const bb = new ByteBuffer(body);
  const root = bb.readInt32(bb.position()) + bb.position();
  const at = bb.__offset(root, vtableOffset(COUNT_SLOT[shape]));
  return at === 0 ? 0 : bb.readUint32(root + at);
}

/** The rows an answer body holds, read back in its own format: what every encode variant must agree on. */
function rowsIn(format: Format, body: Buffer, shape: string): number {
  if (format === 'json') return (JSON.parse(body.toString('utf8')) as { data: unknown[] }).data.length;
  if (format === 'msgpack') return (unpack(body) as { data: unknown[] }).data.length;
  if (format === 'csv') return body.toString('utf8').split('\r\n').length - 2; // the header, and '' after the last CRLF
  if (format === 'arrow') return (tableFromIPC(body) as Table).numRows;
  return flatCount(shape, body);
}

/** What rendering one answer costs in each format, from the route's reply (the answer cache off): K-lines 100 and a cross-section page. */
export function encodeCases(dataset: Dataset): MicroCase[] {
  const questions = [SIZE_QUESTIONS[0], SIZE_QUESTIONS.find((q) => q.name.startsWith('cross-section'))!];
  return repliesOf(dataset, questions).map(({ q, path, reply }) => ({
    group: 'encode',
    name: q.name,
    detail: path,
    variants: FORMAT_NAMES.filter((f) => offers(reply, f)).map((format) => ({
      name: format,
      run: () => ({ format, body: bodyOf(reply, format) }),
    })),
    baseline: 'json',
    answer: (out) => {
      const { format, body } = out as { format: Format; body: Buffer };
      return rowsIn(format, body, reply.shape.name);
    },
  }));
}

/** A K-lines reply whose value is `value`: the service's msgpack and FlatBuffers renderers encode it; its JSON is JSON.stringify (what the JSON path is tested equal to). */
function replyWithValue(value: unknown, rows: number): Reply {
  return { shape: { ...klinesShape, json: () => JSON.stringify(value), value: () => value }, result: null, rows };
}

/** The three decode variants of one K-lines answer, JSON.parse (with its UTF-8 decode) the baseline. */
function decodeCase(name: string, detail: string, reply: Reply): MicroCase {
  const json = bodyOf(reply, 'json');
  const msgpack = bodyOf(reply, 'msgpack');
  const flat = own(bodyOf(reply, 'flatbuffers'));
  const arrow = bodyOf(reply, 'arrow');
  return {
    group: 'decode',
    name,
    detail: `${detail}; json ${thousands(json.length)} B, msgpack ${thousands(msgpack.length)} B, flatbuffers ${thousands(flat.length)} B, arrow ${thousands(arrow.length)} B`,
    variants: [
      {
        name: 'JSON.parse + sum columns',
        run: () => sumRows((JSON.parse(json.toString('utf8')) as { data: Record<string, unknown>[] }).data),
      },
      {
        name: 'msgpackr unpack + sum columns',
        run: () => sumRows((unpack(msgpack) as { data: Record<string, unknown>[] }).data),
      },
      { name: 'flatbuffers Float64Array columns + sum', run: () => sumFlatColumns(flat) },
      { name: 'apache-arrow tableFromIPC + sum columns', run: () => sumArrowColumns(arrow) },
    ],
    baseline: 'JSON.parse + sum columns',
    answer: (out) => out,
  };
}

/**
 * Client-side decode of a K-lines answer in Node, every number read out: 100 rows (the
 * service's own answer to the HTTP case's request) and DECODE_BIG_ROWS rows.
 */
export function decodeCases(dataset: Dataset): MicroCase[] {
  const [{ reply }] = repliesOf(dataset, [SIZE_QUESTIONS[0]]);
  const code = (reply.shape.value(reply.result) as { symbol: string }).symbol;
  const big = bigKlinesValue(dataset);
  const rows = (big.value as { count: number }).count;
  return [
    decodeCase('klines 100 rows', `ashare ${code}, all fields`, reply),
    decodeCase(`klines ${thousands(rows)} rows`, big.detail, replyWithValue(big.value, rows)),
  ];
}
