// The HTTP load cases as data: which request (path and headers), and what a correct answer of it looks like.

import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { type Table, tableFromIPC } from 'apache-arrow';
import { unpack } from 'msgpackr';
import { SCREEN_QUERY, screenQueryString, SEARCH_TEXT } from '../cases/inputs.js';

/** What a case needs from the running server to build its request (read once per market before the load). */
export interface CaseContext {
  /** A symbol of the market with at least `limit` K-line rows (the first one listed). */
  symbol: string;
  /** The market's first 50 symbols (its listing order; fewer in a tiny market): the batch cases' symbols. */
  symbols: string[];
  /** The market's latest trading day (`end_date` of /markets), `YYYY-MM-DD`. */
  date: string;
  /** The as_of of the point-in-time cases: pastDay of the market's first and latest days. */
  asOf: string;
  /** Up to VARIED_REQUESTS symbols of the market (its listing order): the varied cases' symbols. */
  many: string[];
}

/**
 * A day to ask as_of for: 5 years before `end` (the bench's question on the full demo), or
 * halfway from `start` when the market's history is shorter (a small test snapshot).
 */
export function pastDay(start: string, end: string): string {
  const day = (text: string): number => Date.parse(`${text}T00:00:00Z`);
  const back = day(end) - Math.round(5 * 365.25) * 86_400_000;
  return new Date(back > day(start) ? back : (day(start) + day(end)) / 2).toISOString().slice(0, 10);
}

/** Body formats a case can ask for with `format=` (CSV is not load-tested). */
export type CaseFormat = 'json' | 'msgpack' | 'flatbuffers' | 'arrow';
export type CaseEncoding = 'gzip' | 'br';

export interface HttpCase {
  /** Short name for the table and the JSON. */
  name: string;
  market: string;
  /** The request path and query (everything after host:port); a varied case's first path. */
  path(ctx: CaseContext): string;
  /**
   * A varied case: many distinct paths, asked in turn (each answer cached after the warm-up, as a
   * user's many questions are), and the raw server answers each with its own bytes. `path` is the first.
   */
  paths?(ctx: CaseContext): string[];
  /** Request headers beyond the API key (e.g. Accept-Encoding); the probe and wrk send the same. None when absent. */
  headers?: Readonly<Record<string, string>>;
  /** The format the path asks for (`format=`); JSON when absent. */
  format?: CaseFormat;
  /** The Content-Encoding the headers ask for; none (identity) when absent. */
  encoding?: CaseEncoding;
  /**
   * Throws when the decoded answer (the JSON or msgpack value) is not the answer this case
   * is meant to measure. `checkAnswer` decodes the bytes first; a FlatBuffer is not decoded.
   */
  check(body: unknown, ctx: CaseContext): void;
}

/** A response as the probe received it: the body's bytes as sent (still compressed) and the headers. */
export interface ProbeAnswer {
  body: Buffer;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

/** The Content-Type each case format must come back with (parameters ignored). */
const MEDIA_TYPES: Record<CaseFormat, string> = {
  json: 'application/json',
  msgpack: 'application/msgpack',
  flatbuffers: 'application/x-flatbuffers',
  arrow: 'application/vnd.apache.arrow.stream',
};

/** An Arrow answer as the checks read JSON: `count` (from the metadata) and its rows as objects. */
function arrowValue(bytes: Uint8Array): unknown {
  const table = tableFromIPC(bytes) as Table;
  const scalars = Object.fromEntries(
    [...table.schema.metadata].map(([k, v]) => [k, /^[-0-9[{]|^(true|false|null)$/.test(v) ? JSON.parse(v) : v]),
  );
  return { ...scalars, data: table.toArray() };
}

const headerText = (h: string | string[] | undefined): string => (Array.isArray(h) ? h.join(', ') : (h ?? ''));

/**
 * Throws unless `answer` is the one case `c` measures: the Content-Encoding it asked for
 * (then gunzipped or brotli-decompressed), the Content-Type of its format, and a body that
 * decodes (JSON.parse, msgpackr unpack) to a value `c.check` accepts. A FlatBuffer is only
 * checked to be non-empty and not JSON.
 */
export function checkAnswer(c: HttpCase, answer: ProbeAnswer, ctx: CaseContext): void {
  const encoding = headerText(answer.headers['content-encoding']);
  if (encoding !== (c.encoding ?? ''))
    throw new Error(`expected Content-Encoding '${c.encoding ?? '(none)'}', got '${encoding || '(none)'}'`);
  const bytes =
    c.encoding === 'gzip'
      ? gunzipSync(answer.body)
      : c.encoding === 'br'
        ? brotliDecompressSync(answer.body)
        : answer.body;
  const format = c.format ?? 'json';
  const type = headerText(answer.headers['content-type']).split(';')[0].trim().toLowerCase();
  if (type !== MEDIA_TYPES[format]) throw new Error(`expected Content-Type ${MEDIA_TYPES[format]}, got '${type}'`);
  if (format === 'flatbuffers') {
    if (bytes.length === 0) throw new Error('empty FlatBuffer');
    let json = true;
    try {
      JSON.parse(bytes.toString('utf8'));
    } catch {
      json = false;
    }
    if (json) throw new Error('a FlatBuffer was asked for, the body is JSON');
    return;
  }
  c.check(
    format === 'msgpack' ? unpack(bytes) : format === 'arrow' ? arrowValue(bytes) : JSON.parse(bytes.toString('utf8')),
    ctx,
  );
}

/** The same question as `base` in another format: `format=` added to its query, the body decoded before checking. */
export function inFormat(base: HttpCase, format: Exclude<CaseFormat, 'json'>): HttpCase {
  const path = (ctx: CaseContext): string => {
    const asked = base.path(ctx);
    return `${asked}${asked.includes('?') ? '&' : '?'}format=${format}`;
  };
  return { ...base, name: `${base.name} ${format}`, format, path };
}

/** The same question as `base` with `Accept-Encoding: <encoding>`: the answer comes compressed, decompressed before checking. */
export function compressed(base: HttpCase, encoding: CaseEncoding): HttpCase {
  return {
    ...base,
    name: `${base.name} ${encoding}`,
    encoding,
    headers: { ...base.headers, 'Accept-Encoding': encoding },
  };
}

/** Symbols in a batch case: the most a plan allows in one request. */
export const BATCH_SYMBOLS = 50;

type Body = { count?: number; total?: number; data?: unknown };
const rowsOf = (b: Body): number =>
  Array.isArray(b.data) ? b.data.length : b.data && typeof b.data === 'object' ? Object.keys(b.data).length : -1;

/** A check that `count` and the number of data items are both `n`. */
const expectRows =
  (n: number) =>
  (body: unknown): void => {
    const b = body as Body;
    if (b.count !== n || rowsOf(b) !== n) throw new Error(`expected ${n} rows, got count=${b.count} rows=${rowsOf(b)}`);
  };

/** GET /{market}/klines/{symbol}?limit=100: bfq (the default), all fields, 100 rows. */
export const KLINES_100_BFQ: HttpCase = {
  name: 'klines 100 bfq',
  market: 'ashare',
  path: ({ symbol }) => `/api/v1/ashare/klines/${encodeURIComponent(symbol)}?limit=100`,
  check: expectRows(100),
};

/** The same window, forward-adjusted (a different cached rendering of the same rows). */
export const KLINES_100_QFQ: HttpCase = {
  name: 'klines 100 qfq',
  market: 'ashare',
  path: ({ symbol }) => `/api/v1/ashare/klines/${encodeURIComponent(symbol)}?limit=100&adj=qfq`,
  check: expectRows(100),
};

/** GET /{market}/klines?symbols=<50>&date=<latest day>: one row for each of 50 symbols (close, volume by default). */
export const KLINES_BATCH_50: HttpCase = {
  name: 'klines batch 50×1d',
  market: 'ashare',
  path: ({ symbols, date }) =>
    `/api/v1/ashare/klines?symbols=${symbols.map(encodeURIComponent).join(',')}&date=${date}`,
  check(body, { symbols }) {
    const b = body as Body;
    if (b.count !== symbols.length || rowsOf(b) !== symbols.length)
      throw new Error(`expected ${symbols.length} symbols × 1 row, got count=${b.count} symbols=${rowsOf(b)}`);
  },
};

/** GET /{market}/detail/{symbol}: every snapshot column of one symbol. */
export const DETAIL: HttpCase = {
  name: 'detail',
  market: 'ashare',
  path: ({ symbol }) => `/api/v1/ashare/detail/${encodeURIComponent(symbol)}`,
  check(body) {
    const b = body as { count?: number; data?: { symbol?: string } };
    if (b.count !== 1 || typeof b.data?.symbol !== 'string')
      throw new Error(`expected one snapshot, got count=${b.count}`);
  },
};

/** GET /{market}/detail?symbols=<50>: 50 snapshots, every column. */
export const DETAIL_BATCH_50: HttpCase = {
  name: 'detail batch 50',
  market: 'ashare',
  path: ({ symbols }) => `/api/v1/ashare/detail?symbols=${symbols.map(encodeURIComponent).join(',')}`,
  check: (body, ctx) => expectRows(ctx.symbols.length)(body),
};

/** GET /{market}/screen: ashare's 3,000 snapshots, three bounded columns, sorted by change_percent, 50 rows. */
export const SCREEN: HttpCase = {
  name: 'screen',
  market: 'ashare',
  path: () => `/api/v1/ashare/screen?${screenQueryString()}`,
  check(body) {
    const b = body as Body;
    const page = Math.min(SCREEN_QUERY.limit, b.total ?? -1); // the full demo matches far more than a page
    if (!(page > 0) || b.count !== page || rowsOf(b) !== page)
      throw new Error(`expected a page of ${page} matches, got count=${b.count} rows=${rowsOf(b)} total=${b.total}`);
  },
};

/** The screen as of a past day (5 years back on the full demo): answered from the as-of table kept after its first request. */
export const SCREEN_AS_OF: HttpCase = {
  ...SCREEN,
  name: 'screen as_of',
  path: ({ asOf }) => `/api/v1/ashare/screen?${screenQueryString()}&as_of=${asOf}`,
};

/** GET /{market}/symbols?search=…: a name substring, so every code (and name) is compared; first page of 50. */
export const SYMBOLS_SEARCH: HttpCase = {
  name: 'symbols search',
  market: 'ashare',
  path: () => `/api/v1/ashare/symbols?search=${encodeURIComponent(SEARCH_TEXT)}`,
  check(body) {
    const b = body as Body;
    const page = Math.min(50, b.total ?? -1); // 84 matches in the full demo; a tiny one may have none
    if (!(page >= 0) || b.count !== page || rowsOf(b) !== page)
      throw new Error(`expected a page of ${page} matches, got count=${b.count} rows=${rowsOf(b)}`);
  },
};

/** GET /markets: the six markets' overview. */
export const MARKETS: HttpCase = {
  name: 'markets',
  market: 'ashare',
  path: () => '/api/v1/markets',
  check: expectRows(6),
};

/** GET /quota: the calling key's plan and usage (charges nothing). */
export const QUOTA: HttpCase = {
  name: 'quota',
  market: 'ashare',
  path: () => '/api/v1/quota',
  check(body) {
    if (typeof (body as { plan?: unknown }).plan !== 'string') throw new Error('expected a quota record with a plan');
  },
};

/** Distinct requests in a varied case. */
export const VARIED_REQUESTS = 1000;

/**
 * The same question as `base` over many distinct requests: `paths` gives each (the first checked
 * as `base` checks it, every one answered 200 by the probe), `name` gets "(varied)".
 */
function varied(base: HttpCase, paths: (ctx: CaseContext) => string[]): HttpCase {
  return { ...base, name: `${base.name} (varied)`, path: (ctx) => paths(ctx)[0], paths };
}

/** The media type that asks for `format` in Accept (the registry's own, first). */
const ACCEPT: Record<Exclude<CaseFormat, 'json'>, string> = {
  msgpack: 'application/msgpack',
  flatbuffers: 'application/x-flatbuffers',
  arrow: 'application/vnd.apache.arrow.stream',
};

/** `base` asked by `Accept: <format's media type>` rather than `format=`. */
function accepting(base: HttpCase, format: Exclude<CaseFormat, 'json'>): HttpCase {
  return { ...base, name: `${base.name} ${format}`, format, headers: { ...base.headers, Accept: ACCEPT[format] } };
}

const klinePaths = ({ many }: CaseContext): string[] =>
  many.map((s) => `/api/v1/ashare/klines/${encodeURIComponent(s)}?limit=100`);
/** Screens of 1,000 distinct questions with full pages: the P/E ceiling from 20 to 59, 25 offsets of each (0 to 240). */
const screenPaths = (): string[] =>
  Array.from({ length: VARIED_REQUESTS }, (_, i) => {
    const bounds = new Map(SCREEN_QUERY.bounds).set('pe_ratio', { min: 0, max: 20 + (i % 40) });
    return `/api/v1/ashare/screen?${screenQueryString({ ...SCREEN_QUERY, bounds, offset: Math.floor(i / 40) * 10 })}`;
  });
/** `base` as JSON, in msgpack and FlatBuffers (by Accept), and gzip and br (by Accept-Encoding), each varied. */
const everyWayOut = (base: HttpCase, paths: (ctx: CaseContext) => string[]): HttpCase[] =>
  [
    base,
    accepting(base, 'msgpack'),
    accepting(base, 'flatbuffers'),
    accepting(base, 'arrow'),
    compressed(base, 'gzip'),
    compressed(base, 'br'),
  ].map((c) => varied(c, paths));

/**
 * The cases as users send them: many distinct requests each (K-lines 100 of 1,000 symbols, the
 * screen at 1,000 offsets, detail of 1,000 symbols, a search for each of 1,000 codes), K-lines and
 * the screen in every format (by Accept) and encoding (by Accept-Encoding).
 */
export const VARIED_CASES: HttpCase[] = [
  ...everyWayOut(KLINES_100_BFQ, klinePaths),
  ...everyWayOut(SCREEN, screenPaths),
  varied(DETAIL, ({ many }) => many.map((s) => `/api/v1/ashare/detail/${encodeURIComponent(s)}`)),
  varied(SYMBOLS_SEARCH, ({ many }) => many.map((s) => `/api/v1/ashare/symbols?search=${encodeURIComponent(s)}`)),
];

/** The cases `compare` runs by default. */
export const DEFAULT_CASES: HttpCase[] = [KLINES_100_BFQ];

/** Every endpoint class of the full bench, JSON without compression, in table order. */
export const ALL_CASES: HttpCase[] = [
  KLINES_100_BFQ,
  KLINES_100_QFQ,
  KLINES_BATCH_50,
  DETAIL,
  DETAIL_BATCH_50,
  SCREEN,
  SCREEN_AS_OF,
  SYMBOLS_SEARCH,
  MARKETS,
  QUOTA,
];

/**
 * K-lines 100 and the screen in the binary formats (`format=`) and as JSON compressed
 * (`Accept-Encoding`): what the other ways out cost once an answer is cached.
 */
export const FORMAT_CASES: HttpCase[] = [
  inFormat(KLINES_100_BFQ, 'msgpack'),
  inFormat(KLINES_100_BFQ, 'flatbuffers'),
  inFormat(SCREEN, 'msgpack'),
  inFormat(SCREEN, 'flatbuffers'),
  compressed(KLINES_100_BFQ, 'gzip'),
  compressed(KLINES_100_BFQ, 'br'),
  compressed(SCREEN, 'gzip'),
  compressed(SCREEN, 'br'),
];

/** The `n`-th weekday before `date` (0: `date` itself when a weekday), `YYYY-MM-DD`: the varied days of the query cases. */
export function weekdayBefore(date: string, n: number): string {
  const t = new Date(`${date}T00:00:00Z`);
  for (let left = n; ; t.setUTCDate(t.getUTCDate() - 1)) {
    const weekday = t.getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    if (left-- === 0) return t.toISOString().slice(0, 10);
  }
}

/** A cross-section page: every ashare symbol's row of one day, 500 a page. */
export const CROSS_SECTION_PAGE = 500;
/** Pages asked of each day: ashare's ~3,000 symbols of the full demo. */
const CROSS_SECTION_PAGES = 6;
/**
 * Days of the cross-section case: 100 days × 6 pages of ~72 KB are 600 distinct answers, ~44 MB,
 * within the default 64 MB answer cache (1,000 pages would not fit, and every ask would be a first).
 */
const CROSS_SECTION_DAYS = 100;

/** A check that the answer is a page of a non-empty day: `count` rows, at most a page, total above zero. */
function expectPage(body: unknown): void {
  const b = body as Body;
  if (!(typeof b.total === 'number' && b.total > 0 && b.count === rowsOf(b) && (b.count ?? 0) <= CROSS_SECTION_PAGE))
    throw new Error(`expected a page of a trading day, got count=${b.count} rows=${rowsOf(b)} total=${b.total}`);
}

/** Batches of 50 of the 1,000 symbols: the i-th starts at (i × 37) mod (n − 50), as the batch of a day's do. */
const batchOf50 = (many: string[], i: number): string[] => {
  const from = (i * 37) % Math.max(1, many.length - BATCH_SYMBOLS);
  return many.slice(from, from + BATCH_SYMBOLS).map(encodeURIComponent);
};

/**
 * The questions desks ask beyond one window, over many distinct requests: batch K-lines of
 * 50 symbols on one day (symbols and day vary), ashare's cross-section on one day (every page of
 * 100 days), monthly bars of a symbol's whole history, and K-lines named by `600000.SH`.
 */
export const QUERY_CASES: HttpCase[] = [
  varied({ ...KLINES_BATCH_50, check: () => {} }, ({ many, date }) =>
    Array.from(
      { length: VARIED_REQUESTS },
      (_, i) => `/api/v1/ashare/klines?symbols=${batchOf50(many, i).join(',')}&date=${weekdayBefore(date, i % 500)}`,
    ),
  ),
  varied(
    {
      name: `cross-section ${CROSS_SECTION_PAGE}`,
      market: 'ashare',
      path: ({ date }) => `/api/v1/ashare/klines?date=${date}&limit=${CROSS_SECTION_PAGE}`,
      check: expectPage,
    },
    ({ date }) =>
      Array.from(
        { length: CROSS_SECTION_DAYS * CROSS_SECTION_PAGES },
        (_, i) =>
          `/api/v1/ashare/klines?date=${weekdayBefore(date, Math.floor(i / CROSS_SECTION_PAGES))}&limit=${CROSS_SECTION_PAGE}&offset=${(i % CROSS_SECTION_PAGES) * CROSS_SECTION_PAGE}`,
      ),
  ),
  varied(
    {
      name: 'monthly bars',
      market: 'ashare',
      path: ({ symbol }) => `/api/v1/ashare/klines/${encodeURIComponent(symbol)}?period=month&limit=1000`,
      check(body) {
        const b = body as Body;
        if (!((b.count ?? 0) > 12 && b.count === b.total))
          throw new Error(`expected a whole history of months, got count=${b.count}`);
      },
    },
    ({ many }) => many.map((s) => `/api/v1/ashare/klines/${encodeURIComponent(s)}?period=month&limit=1000`),
  ),
  varied({ ...KLINES_100_BFQ, name: 'klines 100 bfq by alias' }, ({ many }) =>
    many.map((s) => `/api/v1/ashare/klines/${s.slice(2)}.${s.slice(0, 2).toUpperCase()}?limit=100`),
  ),
];

/** GET /{market}/klines/{symbol}?limit=20: the latest 20 rows, bfq, all fields (a chart's first screen). */
export const KLINES_LATEST_20: HttpCase = {
  name: 'klines latest 20',
  market: 'ashare',
  path: ({ symbol }) => `/api/v1/ashare/klines/${encodeURIComponent(symbol)}?limit=20`,
  check: expectRows(20),
};

/**
 * The first ask of each kind of answer (run with RESPONSE_CACHE_MB=0, so every request is one):
 * K-lines 100 bfq and qfq, the latest 20, detail and a detail batch of 50, a batch of 50 symbols
 * on one day, the screen and symbol search, each over 1,000 distinct requests. Each has its floor
 * in bare-server.ts (the answer's own work, no pipeline), so the service's share shows per case.
 */
export const FIRST_ASK_CASES: HttpCase[] = [
  varied(KLINES_100_BFQ, klinePaths),
  varied(KLINES_100_QFQ, ({ many }) =>
    many.map((s) => `/api/v1/ashare/klines/${encodeURIComponent(s)}?limit=100&adj=qfq`),
  ),
  varied(KLINES_LATEST_20, ({ many }) => many.map((s) => `/api/v1/ashare/klines/${encodeURIComponent(s)}?limit=20`)),
  varied(DETAIL, ({ many }) => many.map((s) => `/api/v1/ashare/detail/${encodeURIComponent(s)}`)),
  varied({ ...DETAIL_BATCH_50, check: () => {} }, ({ many }) =>
    Array.from({ length: VARIED_REQUESTS }, (_, i) => {
      // The starts repeat after n − 50 batches: a repeat names its symbols the other way round (a request of its own).
      const batch = batchOf50(many, i);
      return `/api/v1/ashare/detail?symbols=${(i < many.length - BATCH_SYMBOLS ? batch : batch.reverse()).join(',')}`;
    }),
  ),
  QUERY_CASES[0], // a batch of 50 symbols on one day
  varied(SCREEN, screenPaths),
  varied(SYMBOLS_SEARCH, ({ many }) => many.map((s) => `/api/v1/ashare/symbols?search=${encodeURIComponent(s)}`)),
];

/** `cases` with RESPONSE_CACHE_MB=0: "(varied)" named "(varied uncached)". */
const uncached = (cases: HttpCase[]): HttpCase[] =>
  cases.map((c) => ({ ...c, name: c.name.replace('(varied)', '(varied uncached)') }));

/** The first asks and the other query cases with RESPONSE_CACHE_MB=0: what a first ask costs, the alias beside its code. */
export const QUERY_UNCACHED_CASES: HttpCase[] = uncached([
  ...FIRST_ASK_CASES,
  ...QUERY_CASES.filter((c) => !FIRST_ASK_CASES.includes(c)),
]);
