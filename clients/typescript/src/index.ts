// The market data query service from TypeScript: one method per endpoint, typed by the service's
// own OpenAPI document (src/schema.d.ts, generated from it at build time), Link paging as async
// iterators, problems thrown as MdqError, answers decoded from JSON, msgpack or Arrow.

import { type Table, tableFromIPC } from 'apache-arrow';
import { unpack } from 'msgpackr';
import { nextLink, type QueryValue, queryString } from './query.js';
import type { components, paths } from './schema.js';

export { nextLink, queryString } from './query.js';
export type { components, paths } from './schema.js';

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
    responses: { 200: { content: { 'application/json; charset=utf-8': infer A } } };
  }
    ? A
    : never;

/** An RFC 9457 problem the service answered, as an exception: its code, the parameter at fault, suggestions. */
export class MdqError extends Error {
  readonly status: number;
  readonly code: string;
  readonly param: string | undefined;
  readonly suggestions: string[] | undefined;
  /** The request id (X-Request-Id) to quote when asking about it. */
  readonly instance: string | undefined;

  constructor(problem: Schemas['Problem']) {
    super(`${problem.status} ${problem.code}: ${problem.detail}`);
    this.name = 'MdqError';
    this.status = problem.status;
    this.code = problem.code;
    this.param = problem.param;
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
}

/** Screen bounds: `{ pe_ratio: { min: 0, max: 15 } }` becomes `min_pe_ratio=0&max_pe_ratio=15`. */
export type Bounds = Record<string, { min?: number; max?: number }>;

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
  screen(
    market: string,
    query: Omit<Query<'/{market}/screen'>, 'bounds'> & { bounds?: Bounds } = {},
  ): Promise<Answer<'/{market}/screen'>> {
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
  screenRows(market: string, query: Omit<Query<'/{market}/screen'>, 'bounds'> & { bounds?: Bounds } = {}) {
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

  /** The response of a GET, or the problem it answered thrown as MdqError. */
  private async request(url: string, accept: string): Promise<Response> {
    const res = await this.fetch(url, { headers: { 'x-api-key': this.options.key, accept } });
    if (res.ok) return res;
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
    throw new MdqError(problem);
  }

  private async decode(res: Response): Promise<unknown> {
    const type = res.headers.get('content-type') ?? '';
    if (type.startsWith('application/msgpack')) return unpack(new Uint8Array(await res.arrayBuffer()));
    return res.json();
  }
}

/** A batch's symbols: an empty list is a mistake here (sent as nothing, it would ask another question). */
function some(symbols: readonly string[]): readonly string[] {
  if (symbols.length === 0) throw new TypeError('a batch names at least one symbol');
  return symbols;
}

/** Screen bounds spread into min_/max_ parameters. */
function screenQuery(query: { bounds?: Bounds } & Record<string, unknown>): Record<string, QueryValue> {
  const { bounds, ...rest } = query;
  const spread: Record<string, number> = {};
  for (const [column, { min, max }] of Object.entries(bounds ?? {})) {
    if (min !== undefined) spread[`min_${column}`] = min;
    if (max !== undefined) spread[`max_${column}`] = max;
  }
  return { ...(rest as Record<string, QueryValue>), bounds: spread };
}

/** Every item of an async iterable, in an array (Array.fromAsync before Node 22). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}
