// GET /{market}/klines: daily K-line rows of several symbols.

import { badParam } from '../problem.js';
import { list, optionalDate, parseParams } from '../params/rules.js';
import type { Route } from '../route.js';
import type { BodyPart } from '../serialise/assemble.js';
import { renderedWindow } from './kline-text.js';
import { fieldNames, KLINE_PARAMS, klineFields } from './kline-params.js';
import { batchOf, checkRange, clamp, marketOf, requireSome } from './lookup.js';

const PARAMS = { ...KLINE_PARAMS, symbols: list(true), date: optionalDate };

export const klinesBatchRoute: Route = {
  pattern: '/api/v1/:market/klines',
  paramNames: ['market'],
  auth: true,
  charges: true,
  cacheable: true,
  handle({ dataset, params, query, plan }) {
    const m = marketOf(dataset, params[0]);
    const p = parseParams(query, PARAMS);
    if (p.date !== null && (p.start !== null || p.end !== null)) throw badParam('date', 'date cannot be combined with start or end');
    checkRange(p.start, p.end);
    const fields = klineFields(p.fields, ['close', 'volume']);
    const limit = clamp(p.limit, plan.rowsPerCall);
    const batch = batchOf(m, p.symbols!, plan);
    requireSome(batch, m);
    const window = p.date !== null ? { start: p.date, end: p.date, offset: p.offset, limit } : { start: p.start, end: p.end, offset: p.offset, limit };
    const body: BodyPart[] = ['']; // the head, once the count is known
    let count = 0;
    for (const i of batch.found) {
      body.push(`${body.length > 1 ? ',' : ''}"${m.symbols.codes[i]}":[`); // codes need no escaping
      count += renderedWindow(dataset, m, i, window, p.adj, fields, body).count;
      body.push(']');
    }
    body[0] = `{"market":"${m.market}","count":${count},"limit":${limit},"offset":${p.offset},"fields":${JSON.stringify(fieldNames(fields))},"data":{`;
    body.push(batch.missing.length > 0 ? `},"missing":${JSON.stringify(batch.missing)}}` : '}}');
    return { shape: 'klinesBatch', body, rows: count };
  },
};
