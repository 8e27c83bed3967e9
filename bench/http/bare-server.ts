// The floor of each first ask: a bare uWS handler per kind of answer doing only that answer's own
// work, with the service's own engine queries and renderers (and their rendered-row caches, as the
// service keeps them): the path's parameters read as plainly as can be, the query, the JSON body,
// an ETag hashed from the query, one header block. No key, limits, parameter checks, negotiation,
// answer cache, metrics or request id. Started like dist/main.js (`--port 0 --host H --state DIR`;
// other flags ignored), so `versus --base-main` runs it against the service: what the service's
// one request pipeline costs on each answer, beside what the answer itself costs.
//
// Served (JSON, ashare or any market): /klines/{symbol}?limit=&adj=, /klines?symbols=&date=,
// /detail/{symbol}, /detail?symbols=, /screen?min_…&max_…&sort=&order=&limit=&offset=,
// /symbols?search=.

import { hash } from 'node:crypto';
import { parseArgs } from 'node:util';
import uWS, { type HttpResponse } from 'uWebSockets.js';
import { parseSnapshotDate } from '../../engine/calendar/days.js';
import { KLINE_FIELDS, SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import type { MarketData } from '../../engine/dataset/dataset.js';
import { isMarket } from '../../engine/markets.js';
import { type AdjustMode, klineDay, klineQuery } from '../../engine/queries/klines.js';
import { screen } from '../../engine/queries/screen.js';
import { searchSymbols } from '../../engine/queries/symbol-search.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';
import { Caches } from '../../transport/caches/caches.js';
import { screenAsk, type ScreenParams } from '../../transport/routes/screen.js';
import { assemble, type BodyPart } from '../../transport/serialise/assemble.js';
import { assertNativeUws, silenceVersionMark } from '../../transport/server.js';
import { detailBatchShape, detailShape } from '../../transport/shapes/detail.js';
import { klinesBatchShape } from '../../transport/shapes/klines-batch.js';
import { klinesShape } from '../../transport/shapes/klines.js';
import { symbolsShape } from '../../transport/shapes/plain.js';
import { screenShape } from '../../transport/shapes/screen.js';
import { DEFAULT_PLANS } from '../../engine/plans.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    state: { type: 'string' },
  },
  strict: false,
});
if (typeof values.state !== 'string') throw new Error('--state DIR is required');
const dataset = await openCurrentDataset(values.state);
if (dataset === null) throw new Error(`${values.state} holds no edition`);
/** The rows the service would keep rendered: the same caches, at their default budgets. */
const kept = new Caches().of(dataset);
const INTERNAL = DEFAULT_PLANS.builtIn('internal');
const ALL_COLUMNS = { columns: SNAPSHOT_COLUMNS.map((c) => c.name), key: '*' };
const HEAD =
  'application/json; charset=utf-8\r\ncache-control: private, no-cache\r\nvary: Accept, Accept-Encoding\r\nx-data-version: ';

/** The query's `name=value` pairs, decoded (no checks: the bench's paths are well formed). */
function queryOf(query: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const part of query.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    map.set(decodeURIComponent(part.slice(0, eq)), decodeURIComponent(part.slice(eq + 1)));
  }
  return map;
}

/** The market of the path's first parameter, or null (a 400). */
const marketOf = (text: string): MarketData | null => (isMarket(text) ? dataset.markets[text] : null);

/** Positions of the `symbols` list's codes that exist. */
const symbolsOf = (m: MarketData, list: string): number[] =>
  list
    .split(',')
    .map((code) => m.symbols.find(code))
    .filter((i) => i >= 0);

/** The body in one buffer, its ETag from the data version and the query, one header block, the end. */
function answer(res: HttpResponse, query: string, body: string | BodyPart[]): void {
  const etag = hash('sha1', `${dataset!.version}\n${query}`, 'hex').slice(0, 26);
  res.writeHeader('content-type', `${HEAD}${dataset!.version}\r\netag: "${etag}"`);
  res.end(typeof body === 'string' ? body : assemble(body));
}

const badRequest = (res: HttpResponse): void => void res.writeStatus('400 Bad Request').end('{"error":"bad request"}');

silenceVersionMark();
assertNativeUws();
const app = uWS
  .App()
  .get('/api/v1/:market/klines/:symbol', (res, req) => {
    const m = marketOf(req.getParameter(0) ?? '');
    const query = req.getQuery() ?? '';
    const i = m === null ? -1 : m.symbols.find(decodeURIComponent(req.getParameter(1) ?? ''));
    if (m === null || i < 0) return badRequest(res);
    const q = queryOf(query);
    const window = { start: null, end: null, offset: 0, limit: Number(q.get('limit') ?? 100) };
    const adj = (q.get('adj') ?? 'bfq') as AdjustMode;
    const result = klineQuery(m, i, { window, adj, period: 'day', fields: KLINE_FIELDS }, { bars: kept.bars });
    answer(res, query, klinesShape.json(result, kept));
  })
  .get('/api/v1/:market/klines', (res, req) => {
    const m = marketOf(req.getParameter(0) ?? '');
    const query = req.getQuery() ?? '';
    const q = queryOf(query);
    const day = parseSnapshotDate(q.get('date') ?? '');
    if (m === null || !Number.isFinite(day)) return badRequest(res);
    const window = { start: day, end: day, offset: 0, limit: 100 };
    const ask = { window, adj: 'bfq' as const, period: 'day' as const, fields: ['close', 'volume'] as const };
    const result = klineDay(m, symbolsOf(m, q.get('symbols') ?? ''), day, ask);
    answer(res, query, klinesBatchShape.json({ ...result, missing: [] }, kept));
  })
  .get('/api/v1/:market/detail/:symbol', (res, req) => {
    const m = marketOf(req.getParameter(0) ?? '');
    const i = m === null ? -1 : m.symbols.find(decodeURIComponent(req.getParameter(1) ?? ''));
    if (m === null || i < 0) return badRequest(res);
    answer(res, req.getQuery() ?? '', detailShape.json({ m, i, set: ALL_COLUMNS }, kept));
  })
  .get('/api/v1/:market/detail', (res, req) => {
    const m = marketOf(req.getParameter(0) ?? '');
    const query = req.getQuery() ?? '';
    if (m === null) return badRequest(res);
    const found = symbolsOf(m, queryOf(query).get('symbols') ?? '');
    answer(res, query, detailBatchShape.json({ m, found, missing: [], set: ALL_COLUMNS }, kept));
  })
  .get('/api/v1/:market/screen', (res, req) => {
    const marketText = req.getParameter(0) ?? '';
    const query = req.getQuery() ?? '';
    if (marketOf(marketText) === null) return badRequest(res);
    const q = queryOf(query);
    const p = {
      sort: q.get('sort') ?? 'change_percent',
      order: q.get('order') ?? 'desc',
      fields: null,
      limit: Number(q.get('limit') ?? 50),
      offset: Number(q.get('offset') ?? 0),
      as_of: null,
    } as ScreenParams;
    const ask = screenAsk(dataset, marketText, q, p, INTERNAL, kept.screenColumns);
    const result = screen(ask.full.snapshots, ask.q);
    const page = {
      m: ask.full,
      result,
      set: ask.set,
      limit: ask.limit,
      offset: ask.offset,
      sort: ask.sort,
      order: ask.order,
    };
    answer(res, query, screenShape.json(page, kept));
  })
  .get('/api/v1/:market/symbols', (res, req) => {
    const m = marketOf(req.getParameter(0) ?? '');
    const query = req.getQuery() ?? '';
    if (m === null) return badRequest(res);
    const search = queryOf(query).get('search') ?? null;
    const page = searchSymbols(m.symbols, search, 0, 50);
    const data = page.indices.map((i) => ({ symbol: m.symbols.codes[i], name: m.symbols.name(i) }));
    const value = { market: m.market, total: page.total, count: data.length, limit: 50, offset: 0, data };
    answer(res, query, symbolsShape.json(value, kept));
  });
app.listen(values.host as string, Number(values.port), (socket) => {
  if (!socket) throw new Error(`cannot listen on ${values.host}:${values.port}`);
  // The line startOurServer waits for (dist/main.js logs it as JSON).
  console.log(
    JSON.stringify({
      msg: `Serving ${dataset.version} at http://127.0.0.1:${uWS.us_socket_local_port(socket)}/api/v1`,
    }),
  );
});
