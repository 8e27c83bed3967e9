// Answers made in-process by the server's own route declarations and renderers: the bytes a request gets, without HTTP.

import type { Dataset } from '../../engine/dataset/dataset.js';
import { DEFAULT_PLANS, type Plan } from '../../engine/plans.js';
import { FORMAT_OF, type Format } from '../../transport/answers/formats/index.js';
import { Guard } from '../../transport/guard/guard.js';
import { parseRequest, type Reply, type Route } from '../../transport/route.js';
import { routesFor } from '../../transport/routes/index.js';
import { assemble } from '../../transport/serialise/assemble.js';
import { render } from '../../transport/serialise/render.js';
import { type CaseContext, pastDay, VARIED_REQUESTS } from '../http/cases.js';
import { KlineTextCache } from '../../transport/caches/kline-text.js';
import { SnapshotTextCache } from '../../transport/caches/snapshot-text.js';
import type { RowCaches } from '../../transport/shapes/shape.js';
import { keptFor } from './case.js';

/** The server's routes, in its order (the guard is only read by /quota, which no bench question asks). */
const ROUTES: Route[] = routesFor(new Guard('UTC'));

/** The raw path parameters of `path` under `pattern` (`/api/v1/:market/klines`), or null when it does not match. */
function matchPattern(pattern: string, path: string): string[] | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: string[] = [];
  for (let k = 0; k < want.length; k++) {
    if (want[k].startsWith(':')) params.push(got[k]);
    else if (want[k] !== got[k]) return null;
  }
  return params;
}

/**
 * The reply the server computes for GET `pathAndQuery` (as in the HTTP cases, e.g.
 * `/api/v1/ashare/klines/sh600000?limit=100`): the first matching route's parameters
 * parsed from its declaration and its `handle` run inline (no pool), under `plan`.
 */
export function replyOf(dataset: Dataset, pathAndQuery: string, plan: Plan = DEFAULT_PLANS.builtIn('internal')): Reply {
  const q = pathAndQuery.indexOf('?');
  const [path, rawQuery] = q < 0 ? [pathAndQuery, ''] : [pathAndQuery.slice(0, q), pathAndQuery.slice(q + 1)];
  for (const route of ROUTES) {
    const params = matchPattern(route.pattern, path);
    if (params === null) continue;
    const { params: decoded, query, p } = parseRequest(route, dataset, params, rawQuery);
    const reply = route.handle(
      {
        dataset,
        caches: keptFor(dataset),
        params: decoded,
        query,
        key: null,
        plan,
        nowMs: Date.now(),
        signal: null,
        pool: null,
      },
      p as never,
    );
    if (reply instanceof Promise) throw new Error(`${pathAndQuery}: the route answered later (pool work), not inline`);
    answeredFrom.set(reply, dataset);
    return reply;
  }
  throw new Error(`no route serves ${path}`);
}

/** The Dataset each reply of `replyOf` came from: its body is rendered with that Dataset's kept rows, as the server renders it. */
const answeredFrom = new WeakMap<Reply, Dataset>();
/** Rows for a reply made by hand (its renderers read no kept rows): caches that keep nothing. */
const NO_ROWS: RowCaches = { klineRows: new KlineTextCache(0), snapshotRows: new SnapshotTextCache(0) };

const rowsFor = (reply: Reply): RowCaches => {
  const dataset = answeredFrom.get(reply);
  return dataset === undefined ? NO_ROWS : keptFor(dataset);
};

/** True when the reply's shape offers `format` (CSV needs rows: the server answers 406 otherwise). */
export const offers = (reply: Reply, format: Format): boolean => FORMAT_OF[format].refusal(reply.shape) === null;

/** The body of `reply` in `format` as the server sends it uncompressed, in memory of its own (render may hand out a reused buffer). */
export function bodyOf(reply: Reply, format: Format): Buffer {
  const { body } = render(reply, format, rowsFor(reply));
  if (typeof body === 'string') return Buffer.from(body);
  return Buffer.from(Array.isArray(body) ? assemble(body) : body); // a copy
}

/**
 * What the HTTP cases' paths need, read the way `caseContext` reads it from a server: the
 * market's first 50 listed symbols (the first is `symbol`), its first VARIED_REQUESTS, and its latest trading day.
 */
export function contextOf(dataset: Dataset, market: string): CaseContext {
  const listed = replyOf(dataset, `/api/v1/${market}/symbols?limit=50`);
  const symbols = (listed.shape.value(listed.result) as { data: { symbol: string }[] }).data.map((d) => d.symbol);
  if (symbols.length === 0) throw new Error(`market ${market} lists no symbol`);
  const many: string[] = [];
  for (let offset = 0; many.length < VARIED_REQUESTS; offset += 100) {
    const page = replyOf(dataset, `/api/v1/${market}/symbols?limit=100&offset=${offset}`);
    const data = (page.shape.value(page.result) as { data: { symbol: string }[] }).data;
    many.push(...data.slice(0, VARIED_REQUESTS - many.length).map((d) => d.symbol));
    if (data.length < 100) break;
  }
  const overview = replyOf(dataset, '/api/v1/markets');
  const row = (
    overview.shape.value(overview.result) as {
      data: { market: string; start_date: string | null; end_date: string | null }[];
    }
  ).data.find((m) => m.market === market);
  if (!row?.start_date || !row.end_date) throw new Error(`market ${market} has no end_date`);
  return { symbol: symbols[0], symbols, date: row.end_date, asOf: pastDay(row.start_date, row.end_date), many };
}
