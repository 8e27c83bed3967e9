// The market data query service from TypeScript: one method per endpoint, typed by the service's
// own OpenAPI document (src/schema.ts, generated from it at build time), Link paging as async
// iterators, 429 and 503 retried after Retry-After, problems thrown as MdqError, answers decoded
// from JSON, msgpack or Arrow; the push over WebSocket as an async iterator (stream.ts).

import { type Table, tableFromIPC } from 'apache-arrow';
import { unpack } from 'msgpackr';
import { nextLink, type QueryValue, queryString, screenQuery } from './query.js';
import type { components, paths } from './schema.js';
import { MessageStream, type StreamOptions, type Subscription } from './stream.js';

export { nextLink, queryString } from './query.js';
export type { components, paths } from './schema.js';
export {
  MessageStream,
  StreamError,
  type StreamMessage,
  type StreamMessageOf,
  type StreamOptions,
  type StreamScreenQuery,
  type Subscription,
} from './stream.js';

type Schemas = components['schemas'];
type Get<P extends keyof paths> = paths[P] extends { get: infer G } ? G : never;
/** The query parameters of a path (format aside: the client chooses it). */
export type Query<P extends keyof paths> = Omit<
  NonNullable<Get<P> extends { parameters: { query?: infer Q } } ? Q : never>,
  'format'
>;
/** The JSON answer of a path. */
export type Answer<P extends keyof paths> =
  Get<P> extends {
    responses: { 200: { content: { 'application/json': infer A } } };
  }
    ? A
    : never;

/** The screen's query parameters as the document declares them (`min_<column>` and `max_<column>` each its own). */
type ScreenParams = Query<'/{market}/screen'>;
/** A column the screen may bound: the whitelist, read from the document's `min_<column>` parameters. */
export type ScreenColumn = keyof ScreenParams extends infer K ? (K extends `min_${infer C}` ? C : never) : never;
/** Screen bounds: `{ pe_ratio: { min: 0, max: 15 } }` becomes `min_pe_ratio=0&max_pe_ratio=15`; a column off the whitelist does not compile. */
export type Bounds = { [C in ScreenColumn]?: { min?: number; max?: number } };
/** The screen's query: its parameters, and the bounds as one object. */
export type ScreenQuery = Omit<ScreenParams, `min_${string}` | `max_${string}`> & { bounds?: Bounds };

/** An RFC 9457 problem the service answered, as an exception: its code, the parameter at fault, the wait it asked for, suggestions. */
export class MdqError extends Error {
  readonly status: number;
  readonly code: string;
  readonly param: string | undefined;
  readonly detail: string;
  /** Seconds the answer's `Retry-After` asked to wait (429, 503), or null when it named none. */
  readonly retryAfter: number | null;
  readonly suggestions: string[] | undefined;
  /** The request id (X-Request-Id) to quote when asking about it. */
  readonly instance: string | undefined;

  constructor(problem: Schemas['Problem'], retryAfter: number | null = null) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = 'MdqError';
    this.status = problem.status;
    this.code = problem.code;
    this.param = problem.param;
    this.detail = problem.detail;
    this.retryAfter = retryAfter;
    this.suggestions = problem.suggestions;
    this.instance = problem.instance;
  }
}

export interface ClientOptions {
  /** Where the service is, e.g. `http://127.0.0.1:8080` (the API is under `/api/v1`). */
  baseUrl: string;
  /** An API key (sent as X-API-Key). */
  key: string;
  /** How typed answers travel: JSON (default) or msgpack (the same value, smaller and faster to read). */
  format?: 'json' | 'msgpack';
  /** A fetch to use instead of the global one. */
  fetch?: typeof fetch;
  /**
   * Retries of a 429 or 503 (default 3; 0: none, the first problem is thrown). Each waits the
   * answer's `Retry-After` (else 0.5 s, doubling) plus up to a quarter more at random, so clients
   * refused together do not return together.
   */
  retries?: number;
  /** The longest `Retry-After` worth waiting, seconds (default 60): a longer one (a spent daily quota) is thrown at once. */
  maxRetryWait?: number;
}

const seg = encodeURIComponent;

export class Client {
  private readonly base: string;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.base = options.baseUrl.replace(/\/+$/, '');
    this.fetch = options.fetch ?? globalThis.fetch;
  }

  // ---- one method per endpoint ---------------------------------------------------------

  markets(): Promise<Answer<'/markets'>> {
    return this.get('/markets', {});
  }
  symbols(market: string, query: Query<'/{market}/symbols'> = {}): Promise<Answer<'/{market}/symbols'>> {
    return this.get(`/${seg(market)}/symbols`, query);
  }
  klines(
    market: string,
    symbol: string,
    query: Query<'/{market}/klines/{symbol}'> = {},
  ): Promise<Answer<'/{market}/klines/{symbol}'>> {
    return this.get(`/${seg(market)}/klines/${seg(symbol)}`, query);
  }
  /** K-lines of several symbols (`data` keyed by canonical code). */
  klinesBatch(
    market: string,
    symbols: readonly string[],
    query: Omit<Query<'/{market}/klines'>, 'symbols'> = {},
  ): Promise<Schemas['KlinesBatch']> {
    return this.get(`/${seg(market)}/klines`, { ...query, symbols: some(symbols) });
  }
  /** Every symbol's row of one day (a page of it: see `crossSectionRows`). */
  crossSection(
    market: string,
    date: string,
    query: Omit<Query<'/{market}/klines'>, 'symbols' | 'date'> = {},
  ): Promise<Schemas['CrossSection']> {
    return this.get(`/${seg(market)}/klines`, { ...query, date });
  }
  detail(
    market: string,
    symbol: string,
    query: Query<'/{market}/detail/{symbol}'> = {},
  ): Promise<Answer<'/{market}/detail/{symbol}'>> {
    return this.get(`/${seg(market)}/detail/${seg(symbol)}`, query);
  }
  detailBatch(
    market: string,
    symbols: readonly string[],
    query: Omit<Query<'/{market}/detail'>, 'symbols'> = {},
  ): Promise<Answer<'/{market}/detail'>> {
    return this.get(`/${seg(market)}/detail`, { ...query, symbols: some(symbols) });
  }
  screen(market: string, query: ScreenQuery = {}): Promise<Answer<'/{market}/screen'>> {
    return this.get(`/${seg(market)}/screen`, screenQuery(query));
  }
  calendar(market: string, query: Query<'/{market}/calendar'> = {}): Promise<Answer<'/{market}/calendar'>> {
    return this.get(`/${seg(market)}/calendar`, query);
  }
  actions(
    market: string,
    symbol: string,
    query: Query<'/{market}/actions/{symbol}'> = {},
  ): Promise<Answer<'/{market}/actions/{symbol}'>> {
    return this.get(`/${seg(market)}/actions/${seg(symbol)}`, query);
  }
  macro(query: Query<'/macro'> = {}): Promise<Answer<'/macro'>> {
    return this.get('/macro', query);
  }
  macroIndicators(): Promise<Answer<'/macro/indicators'>> {
    return this.get('/macro/indicators', {});
  }
  quota(): Promise<Answer<'/quota'>> {
    return this.get('/quota', {});
  }

  // ---- paging: every row of every page, following Link: rel="next" ----------------------

  /** Every K-line row of one symbol's window, page after page. */
  klinesRows(market: string, symbol: string, query: Query<'/{market}/klines/{symbol}'> = {}) {
    return this.rows<Answer<'/{market}/klines/{symbol}'>>(`/${seg(market)}/klines/${seg(symbol)}`, query);
  }
  /** Every row of a market's day. */
  crossSectionRows(market: string, date: string, query: Omit<Query<'/{market}/klines'>, 'symbols' | 'date'> = {}) {
    return this.rows<Schemas['CrossSection']>(`/${seg(market)}/klines`, { ...query, date });
  }
  /** Every row the screen matches. */
  screenRows(market: string, query: ScreenQuery = {}) {
    return this.rows<Answer<'/{market}/screen'>>(`/${seg(market)}/screen`, screenQuery(query));
  }
  symbolsRows(market: string, query: Query<'/{market}/symbols'> = {}) {
    return this.rows<Answer<'/{market}/symbols'>>(`/${seg(market)}/symbols`, query);
  }
  calendarRows(market: string, query: Query<'/{market}/calendar'> = {}) {
    return this.rows<Answer<'/{market}/calendar'>>(`/${seg(market)}/calendar`, query);
  }
  macroRows(query: Query<'/macro'> = {}) {
    return this.rows<Answer<'/macro'>>('/macro', query);
  }

  /** Each page of a paged answer, from `path` on, as long as the service links a next one. */
  async *pages<A>(path: string, query: Readonly<Record<string, QueryValue>>): AsyncGenerator<A> {
    let url: string | null = `${this.base}/api/v1${path}${queryString(query)}`;
    while (url !== null) {
      const res = await this.request(url, this.accept());
      yield (await this.decode(res)) as A;
      const next = nextLink(res.headers.get('link'));
      url = next === null ? null : new URL(next, this.base).toString();
    }
  }

  /** Each row (`data` item) of every page. */
  async *rows<A extends { data: readonly unknown[] }>(
    path: string,
    query: Readonly<Record<string, QueryValue>>,
  ): AsyncGenerator<A['data'][number]> {
    for await (const page of this.pages<A>(path, query)) for (const row of page.data) yield row as A['data'][number];
  }

  // ---- push over WebSocket ---------------------------------------------------------------

  /**
   * The messages the service pushes for `subscriptions` (new editions, the bars each adds, standing
   * screens), typed, as an async iterator: made again after a drop and subscribed again, ended by a
   * `break` (which closes the socket), or by a StreamError once the key is refused. In the client's
   * format (msgpack frames when it is msgpack).
   */
  stream(subscriptions: readonly Subscription[], options: StreamOptions = {}): MessageStream {
    const target = { baseUrl: this.base, key: this.options.key };
    return new MessageStream(
      this.options.format === 'msgpack' ? { ...target, unpack: (bytes: Uint8Array) => unpack(bytes) } : target,
      subscriptions,
      options,
    );
  }

  // ---- Arrow and export ------------------------------------------------------------------

  /** Any row-shaped answer as an Arrow table (`format=arrow`): its rows as columns, its figures in `schema.metadata`. */
  async arrow(path: string, query: Readonly<Record<string, QueryValue>> = {}): Promise<Table> {
    const res = await this.request(
      `${this.base}/api/v1${path}${queryString({ ...query, format: 'arrow' })}`,
      'application/vnd.apache.arrow.stream',
    );
    return tableFromIPC(new Uint8Array(await res.arrayBuffer())) as Table;
  }

  /** A market's K-lines exported (CSV, Arrow or NDJSON) as a stream of bytes; charged whole when it starts. */
  async export(
    market: string,
    query: Omit<Query<'/{market}/export'>, 'symbols'> & {
      symbols?: readonly string[];
      format?: 'csv' | 'arrow' | 'ndjson';
    } = {},
  ): Promise<ReadableStream<Uint8Array>> {
    const res = await this.request(`${this.base}/api/v1/${seg(market)}/export${queryString(query)}`, '*/*');
    return res.body!;
  }

  // ---- the one request -------------------------------------------------------------------

  private get<A>(path: string, query: Readonly<Record<string, QueryValue>>): Promise<A> {
    return this.request(`${this.base}/api/v1${path}${queryString(query)}`, this.accept()).then(
      (res) => this.decode(res) as Promise<A>,
    );
  }

  private accept(): string {
    return this.options.format === 'msgpack' ? 'application/msgpack' : 'application/json';
  }

  /** The response of a GET, or the problem it answered thrown as MdqError; a 429 or 503 is tried again (`retries`). */
  private async request(url: string, accept: string): Promise<Response> {
    const retries = this.options.retries ?? 3;
    const longest = this.options.maxRetryWait ?? 60;
    for (let attempt = 0; ; attempt++) {
      const res = await this.fetch(url, { headers: { 'x-api-key': this.options.key, accept } });
      if (res.ok) return res;
      const error = await problemOf(res);
      const wait = error.retryAfter ?? 0.5 * 2 ** attempt;
      if ((res.status !== 429 && res.status !== 503) || attempt >= retries || wait > longest) throw error;
      await sleep(wait * 1000 * (1 + Math.random() * 0.25)); // never sooner than Retry-After; jitter spreads clients out
    }
  }

  private async decode(res: Response): Promise<unknown> {
    const type = res.headers.get('content-type') ?? '';
    if (type.startsWith('application/msgpack')) return unpack(new Uint8Array(await res.arrayBuffer()));
    return res.json();
  }
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** The problem a failed response carries, as MdqError (a body that is no problem+json still gives its status). */
async function problemOf(res: Response): Promise<MdqError> {
  const text = await res.text();
  let problem: Schemas['Problem'];
  try {
    problem = JSON.parse(text) as Schemas['Problem'];
  } catch {
    problem = {
      type: 'about:blank',
      title: res.statusText,
      status: res.status,
      code: 'http_error',
      detail: text.slice(0, 200),
    };
  }
  const after = res.headers.get('retry-after');
  return new MdqError(problem, after !== null && /^\d+$/.test(after) ? Number(after) : null);
}

/** A batch's symbols: an empty list is a mistake here (sent as nothing, it would ask another question). */
function some(symbols: readonly string[]): readonly string[] {
  if (symbols.length === 0) throw new TypeError('a batch names at least one symbol');
  return symbols;
}

/** Every item of an async iterable, in an array (Array.fromAsync before Node 22). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
