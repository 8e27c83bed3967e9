// The memory part's request mix: a seeded stream of distinct requests over every route, format and encoding.

import { NUMERIC_SNAPSHOT_COLUMNS, SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import { Rng } from '../../loaders/demo/prng.js';

/** One request of the mix: the path with its query, and the two headers it varies. */
export interface MixRequest {
  path: string;
  accept: string | null;
  acceptEncoding: string | null;
}

/** What the mix draws from, read from the server once before the load (`/markets`, `/symbols`, a screen per market). */
export interface MixData {
  markets: { market: string; start: string; end: string }[];
  /** Symbol codes and names per market. */
  symbols: Record<string, { codes: string[]; names: string[] }>;
  /** Per market and numeric snapshot column, values seen in its table (for screen bounds that match some rows). */
  samples: Record<string, Record<string, number[]>>;
}

/** Share of each kind of request (they sum to 1); `revisit` re-asks an earlier path with another Accept-Encoding. */
export const MIX_WEIGHTS = {
  klines: 0.26,
  revisit: 0.2,
  screen: 0.14,
  detail: 0.1,
  detailBatch: 0.07,
  klinesBatch: 0.08,
  symbols: 0.08,
  macro: 0.04,
  bad: 0.02,
  markets: 0.005,
  quota: 0.005,
} as const;

const FORMATS = ['json', 'msgpack', 'flatbuffers', 'csv'] as const;
const ACCEPT_OF: Record<(typeof FORMATS)[number], string> = {
  json: 'application/json',
  msgpack: 'application/msgpack',
  flatbuffers: 'application/x-flatbuffers',
  csv: 'text/csv',
};
/** Accept-Encoding values: identity (none), gzip, br, and lists that negotiate to one of them. */
const ENCODINGS = [null, 'gzip', 'br', 'gzip, deflate, br', 'br;q=1.0, gzip;q=0.8', 'gzip;q=1, br;q=0.5'] as const;
const KLINE_CODES = ['o', 'h', 'l', 'c', 'v', 'a'];
const KLINE_NAMES = ['open', 'high', 'low', 'close', 'volume', 'amount'];
const ADJ = ['bfq', 'qfq', 'hfq'];
const SNAPSHOT_FIELDS = SNAPSHOT_COLUMNS.map((c) => c.name).filter((n) => n !== 'symbol');
const INDICATORS = ['gdp', 'cpi_ppi', 'pmi'];
/** Share of detail, batch detail and screen requests asked `as_of` a past day (each new day derives a table: ~15 ms for ashare). */
const AS_OF_SHARE = 0.06;
/** Past days per market the `as_of` requests draw from: some repeat, so the as-of cache both hits and evicts. */
const AS_OF_DAYS = 150;

const DAY_MS = 86_400_000;
const dayText = (ms: number): string => new Date(ms).toISOString().slice(0, 10);

/**
 * An endless, deterministic stream of requests for `data`, never the same (path, Accept,
 * Accept-Encoding) twice. A fifth of them re-ask a recent path with another encoding: a
 * distinct request whose answer the response cache then keeps (it keeps an answer on its
 * second ask), compressed once per encoding.
 */
export class RequestMix {
  private readonly rng: Rng;
  private readonly seen = new Set<string>();
  /** Recent answers worth re-asking: path, Accept, and the encodings already asked. */
  private readonly recent: { path: string; accept: string | null; asked: Set<string | null> }[] = [];
  private readonly asOfDays: Record<string, string[]> = {};
  private readonly kinds: [keyof typeof MIX_WEIGHTS, number][];
  /** Requests drawn by kind (for the report). */
  readonly drawn: Record<string, number> = {};

  constructor(
    private readonly data: MixData,
    seed: number,
  ) {
    this.rng = new Rng(seed);
    let sum = 0;
    this.kinds = Object.entries(MIX_WEIGHTS).map(([k, w]) => [k as keyof typeof MIX_WEIGHTS, (sum += w)]);
    for (const m of data.markets) {
      const first = Date.parse(m.start) + 30 * DAY_MS;
      const last = Date.parse(m.end) - DAY_MS;
      this.asOfDays[m.market] = Array.from({ length: AS_OF_DAYS }, () =>
        dayText(first + Math.floor(this.rng.next() * ((last - first) / DAY_MS)) * DAY_MS),
      );
    }
  }

  /** The next request, distinct from every one before. */
  next(): MixRequest {
    for (;;) {
      const x = this.rng.next();
      const kind = this.kinds.find(([, upTo]) => x < upTo)?.[0] ?? 'klines';
      const made = this.make(kind);
      if (made === null) continue;
      const id = `${made.path}\n${made.accept}\n${made.acceptEncoding}`;
      if (this.seen.has(id)) continue;
      this.seen.add(id);
      this.drawn[kind] = (this.drawn[kind] ?? 0) + 1;
      if (kind !== 'revisit' && kind !== 'bad' && this.rng.chance(0.5)) {
        this.recent.push({ path: made.path, accept: made.accept, asked: new Set([made.acceptEncoding]) });
        if (this.recent.length > 4000) this.recent.splice(0, 1000);
      }
      return made;
    }
  }

  private make(kind: keyof typeof MIX_WEIGHTS): MixRequest | null {
    const r = this.rng;
    if (kind === 'revisit') {
      if (this.recent.length === 0) return null;
      const old = r.pick(this.recent);
      const encoding = r.pick(ENCODINGS);
      if (old.asked.has(encoding)) return null;
      old.asked.add(encoding);
      return { path: old.path, accept: old.accept, acceptEncoding: encoding };
    }
    const m = r.pick(this.data.markets);
    const market = m.market;
    const { codes, names } = this.data.symbols[market];
    const q: string[] = [];
    let path: string;
    switch (kind) {
      case 'klines': {
        path = `/api/v1/${market}/klines/${r.pick(codes)}`;
        this.window(q, m, 0.25);
        if (r.chance(0.6)) q.push(`fields=${this.klineFields()}`);
        const adj = r.pick(ADJ);
        if (adj !== 'bfq' || r.chance(0.3)) q.push(`adj=${adj}`);
        if (adj === 'qfq' && r.chance(0.05)) q.push(`qfq_base=${r.pick(this.asOfDays[market])}`);
        q.push(`limit=${r.chance(0.4) ? 100 : r.int(1, 500)}`);
        if (r.chance(0.4)) q.push(`offset=${r.int(0, 2000)}`);
        break;
      }
      case 'klinesBatch': {
        path = `/api/v1/${market}/klines`;
        q.push(`symbols=${this.symbols(codes, r.int(2, 30))}`);
        if (r.chance(0.2)) q.push(`date=${this.day(m)}`);
        else this.window(q, m, 0.3);
        if (r.chance(0.6)) q.push(`fields=${this.klineFields()}`);
        if (r.chance(0.5)) q.push(`adj=${r.pick(ADJ)}`);
        q.push(`limit=${r.int(1, 60)}`);
        break;
      }
      case 'detail': {
        path = `/api/v1/${market}/detail/${r.pick(codes)}`;
        if (r.chance(0.5)) q.push(`fields=${this.snapshotFields()}`);
        if (r.chance(AS_OF_SHARE)) q.push(`as_of=${r.pick(this.asOfDays[market])}`);
        break;
      }
      case 'detailBatch': {
        path = `/api/v1/${market}/detail`;
        q.push(`symbols=${this.symbols(codes, r.int(2, 50))}`);
        if (r.chance(0.5)) q.push(`fields=${this.snapshotFields()}`);
        if (r.chance(AS_OF_SHARE)) q.push(`as_of=${r.pick(this.asOfDays[market])}`);
        break;
      }
      case 'screen': {
        path = `/api/v1/${market}/screen`;
        const samples = this.data.samples[market];
        const columns = Object.keys(samples).filter((c) => samples[c].length > 0);
        const bounded = new Set<string>();
        for (let b = r.int(0, 3); b > 0 && columns.length > 0; b--) {
          const column = r.pick(columns);
          if (bounded.has(column)) continue; // a parameter named twice is a 400
          bounded.add(column);
          const values = samples[column];
          const lo = r.pick(values);
          const hi = r.pick(values);
          if (r.chance(0.7)) q.push(`min_${column}=${Math.min(lo, hi)}`);
          if (r.chance(0.7)) q.push(`max_${column}=${Math.max(lo, hi)}`);
        }
        q.push(`sort=${r.pick(NUMERIC_SNAPSHOT_COLUMNS)}`);
        if (r.chance(0.5)) q.push(`order=${r.chance(0.5) ? 'asc' : 'desc'}`);
        if (r.chance(0.3)) q.push(`fields=${this.snapshotFields()}`);
        q.push(`limit=${r.chance(0.5) ? 50 : r.int(1, 500)}`);
        if (r.chance(0.6)) q.push(`offset=${r.int(0, 300)}`);
        if (r.chance(AS_OF_SHARE)) q.push(`as_of=${r.pick(this.asOfDays[market])}`);
        break;
      }
      case 'symbols': {
        path = `/api/v1/${market}/symbols`;
        if (r.chance(0.8)) {
          const i = r.int(0, codes.length - 1);
          const text = r.chance(0.5) || names[i] === '' ? codes[i] : names[i];
          const from = r.int(0, Math.max(0, text.length - 2));
          const term = text.slice(from, from + r.int(1, 4));
          q.push(`search=${encodeURIComponent(r.chance(0.3) ? term.toUpperCase() : term)}`);
        }
        q.push(`limit=${r.int(1, 100)}`);
        if (r.chance(0.4)) q.push(`offset=${r.int(0, 200)}`);
        break;
      }
      case 'macro': {
        path = '/api/v1/macro';
        if (r.chance(0.7)) q.push(`indicator=${r.pick(INDICATORS)}`);
        if (r.chance(0.5)) q.push(`start=${r.int(2016, 2024)}`);
        if (r.chance(0.3)) q.push(`end=${r.int(2024, 2026)}`);
        q.push(`limit=${r.int(1, 300)}`);
        if (r.chance(0.3)) q.push(`offset=${r.int(0, 200)}`);
        break;
      }
      case 'markets':
        path = '/api/v1/markets';
        break;
      case 'quota':
        path = '/api/v1/quota';
        break;
      case 'bad': {
        // 400s and 404s: unknown symbols and parameters, bad values (answered as problems, never kept).
        const which = r.int(0, 3);
        path =
          which === 0
            ? `/api/v1/${market}/klines/zz${r.int(0, 1e9)}`
            : which === 1
              ? `/api/v1/${market}/detail/${r.pick(codes)}`
              : `/api/v1/${market}/screen`;
        q.push(
          which === 1
            ? `colour=${r.int(0, 1e9)}`
            : which === 2
              ? `limit=-${r.int(1, 1e9)}`
              : `sort=nope${r.int(0, 1e9)}`,
        );
        break;
      }
      default:
        return null;
    }
    // The format by `format=` or by Accept (or JSON by default); csv is not offered by /quota.
    const format = r.pick(FORMATS);
    let accept: string | null = null;
    if (format !== 'csv' || kind !== 'quota') {
      const how = r.int(0, 2);
      if (how === 0) q.push(`format=${format}`);
      else if (how === 1) accept = ACCEPT_OF[format];
    }
    const order = q.length > 1 && r.chance(0.2) ? [...q.slice(1), q[0]] : q; // parameter order varies too
    return {
      path: order.length === 0 ? path : `${path}?${order.join('&')}`,
      accept,
      acceptEncoding: r.pick(ENCODINGS),
    };
  }

  /** `start`/`end` now and then. */
  private window(q: string[], m: { start: string; end: string }, share: number): void {
    if (this.rng.chance(share)) q.push(`start=${this.day(m)}`);
    // biome-ignore lint/suspicious/noDuplicateElseIf: each condition draws a new random number
    else if (this.rng.chance(share)) q.push(`end=${this.day(m)}`);
  }

  private day(m: { start: string; end: string }): string {
    const first = Date.parse(m.start);
    return dayText(first + this.rng.int(0, (Date.parse(m.end) - first) / DAY_MS) * DAY_MS);
  }

  private klineFields(): string {
    const r = this.rng;
    if (r.chance(0.1)) return '*';
    const names = r.chance(0.5) ? KLINE_CODES : KLINE_NAMES;
    return names.filter(() => r.chance(0.5)).join(',') || r.pick(names);
  }

  private snapshotFields(): string {
    const r = this.rng;
    if (r.chance(0.1)) return '*';
    const out: string[] = [];
    for (let n = r.int(1, 8); n > 0; n--) out.push(r.pick(SNAPSHOT_FIELDS));
    return [...new Set(out)].join(',');
  }

  private symbols(codes: string[], n: number): string {
    const out = new Set<string>();
    while (out.size < Math.min(n, codes.length)) out.add(this.rng.pick(codes));
    return [...out].join(',');
  }
}
