// The HTTP load cases as data: which request, and what a correct answer of it looks like.

/** What a case needs from the running server to build its request. */
export interface CaseContext {
  /** A symbol of the market with at least `limit` K-line rows (the first one listed). */
  symbol: string;
}

export interface HttpCase {
  /** Short name for the table and the JSON. */
  name: string;
  market: string;
  /** The request path and query (everything after host:port). */
  path(ctx: CaseContext): string;
  /** Throws when the probe response is not the answer this case is meant to measure. */
  check(body: unknown): void;
}

/** GET /{market}/klines/{symbol}?limit=100: bfq (the default), all fields, 100 rows. */
export const KLINES_100_BFQ: HttpCase = {
  name: 'klines 100 bfq',
  market: 'ashare',
  path: ({ symbol }) => `/api/v1/ashare/klines/${encodeURIComponent(symbol)}?limit=100`,
  check(body) {
    const b = body as { count?: number; data?: unknown[] };
    if (b.count !== 100 || b.data?.length !== 100) throw new Error(`expected 100 rows, got count=${b.count} rows=${b.data?.length}`);
  },
};

/** The cases `compare` runs by default (the full bench adds the other endpoint classes). */
export const DEFAULT_CASES: HttpCase[] = [KLINES_100_BFQ];
