// The floor of a batch of a day: a bare uWS handler answering `GET /api/v1/{market}/klines?symbols=…&date=…`
// (default fields, JSON) from the stored edition with the least work such an answer needs: the list split,
// each code looked up, its row of the day found and written once (kept per day and symbol, as the service
// keeps it), the kept texts joined, an ETag hashed from the query, one header block. No key, limits,
// parameter checks, metrics, request id or other route. Started like dist/main.js (`--port 0 --host H
// --state DIR`; other flags ignored), so `versus --base-main` runs it against the service: what the
// service's one request pipeline costs on this request, beside what the request itself costs.

import { hash } from 'node:crypto';
import { parseArgs } from 'node:util';
import uWS from 'uWebSockets.js';
import { dateText } from '../../engine/calendar/date-text.js';
import { parseSnapshotDate } from '../../engine/calendar/days.js';
import type { MarketData } from '../../engine/dataset/dataset.js';
import { isMarket } from '../../engine/markets.js';
import { RowOfDay } from '../../engine/queries/row-of-day.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';
import { ByteWriter } from '../../transport/serialise/byte-writer.js';
import { assertNativeUws, silenceVersionMark } from '../../transport/server.js';

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

/** Per market and day: each symbol's `"code":[{row}]` (or `[]`), written on the day's first ask of it. */
const kept = new Map<string, (string | undefined)[]>();
const writer = new ByteWriter(1 << 20);
const HEAD =
  'application/json; charset=utf-8\r\ncache-control: private, no-cache\r\nvary: Accept, Accept-Encoding\r\nx-data-version: ';

/** Symbol `i`'s text of the day whose rows `rowOf` finds, as the service writes it (default fields: close, volume). */
function segment(m: MarketData, rowOf: RowOfDay, i: number): string {
  const code = m.symbols.codes[i];
  const row = rowOf.of(i);
  if (row < 0) return `"${code}":[]`;
  const k = m.klines;
  writer.ascii(`"${code}":[{"symbol":"${code}","date":"${dateText(k.date[row])}","close":`);
  writer.number(k.close[row]);
  writer.ascii(',"volume":');
  writer.number(k.volume[row]);
  writer.ascii(',"adj_factor":');
  writer.number(k.adj_factor[row]);
  writer.ascii('}]');
  return writer.takeText();
}

/** The value of `name` in a query of plain `name=value` pairs ('' when absent). */
function queryValue(query: string, name: string): string {
  for (const part of query.split('&')) if (part.startsWith(`${name}=`)) return part.slice(name.length + 1);
  return '';
}

silenceVersionMark();
assertNativeUws();
const app = uWS.App().get('/api/v1/:market/klines', (res, req) => {
  const market = req.getParameter(0) ?? '';
  const query = req.getQuery() ?? '';
  const day = parseSnapshotDate(queryValue(query, 'date'));
  if (!isMarket(market) || !Number.isFinite(day)) {
    res.writeStatus('400 Bad Request').end('{"error":"a market, symbols and date are needed"}');
    return;
  }
  const m = dataset.markets[market];
  let texts = kept.get(`${market} ${day}`);
  if (texts === undefined) kept.set(`${market} ${day}`, (texts = new Array(m.symbols.size)));
  const items = queryValue(query, 'symbols').split(',');
  const parts: string[] = [];
  let rowOf: RowOfDay | null = null;
  let count = 0;
  for (const item of items) {
    const i = m.symbols.find(item);
    if (i < 0) continue;
    const text = (texts[i] ??= segment(m, (rowOf ??= new RowOfDay(m, day)), i));
    if (!text.endsWith('[]')) count++;
    parts.push(text);
  }
  const body = `{"market":"${market}","count":${count},"limit":100,"offset":0,"fields":["symbol","date","close","volume","adj_factor"],"data":{${parts.join(',')}}}`;
  const etag = hash('sha1', `${dataset.version}\n${query}`, 'hex').slice(0, 26);
  res.writeHeader('content-type', `${HEAD}${dataset.version}\r\netag: "${etag}"`);
  res.end(body);
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
