// GET /{market}/detail/{symbol} and GET /{market}/detail: latest snapshots.

import { SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import { symbolList } from '../params/declare.js';
import { snapshotFieldsParam } from '../params/fields.js';
import type { SnapshotView } from '../../engine/dataset/dataset.js';
import { type Reply, route } from '../route.js';
import { type ColumnSet, detailBatchShape, detailShape } from '../shapes/detail.js';
import { AS_OF, symbolAsOf } from './as-of.js';
import { BATCH_SIZE } from './kline-params.js';
import { batchOf, checkBatchSize, marketOf, requireSome } from './lookup.js';

const ALL: ColumnSet = { columns: SNAPSHOT_COLUMNS.map((c) => c.name), key: '*' };

/** The selected columns (all when `fields` is absent: the common case, made once). */
const columnSet = (fields: string[] | null): ColumnSet =>
  fields === null ? ALL : { columns: fields, key: fields.join(',') };

const SNAPSHOT_EXAMPLE = {
  symbol: 'sh600000',
  date: '2025-06-30',
  name: 'Pudong Bank',
  close: 10.41,
  change_percent: 1.0679,
  pe_ratio: 5.62,
  pb_ratio: 0.48,
  total_market_cap: 3055.3,
  chg_20d: 4.2168,
};

const FIELDS = snapshotFieldsParam('Snapshot columns, or `*`; default all. symbol and date are always returned.');

export const detailRoute = route({
  pattern: '/api/v1/:market/detail/:symbol',
  operationId: 'getDetail',
  summary: 'Latest snapshot of one symbol',
  description: 'Columns in the order of the snapshot table; columns that do not apply to the market are null.',
  tag: 'Snapshots',
  query: { fields: FIELDS, as_of: AS_OF },
  shape: detailShape,
  example: { market: 'ashare', symbol: 'sh600000', count: 1, data: SNAPSHOT_EXAMPLE },
  problems: ['unknown_symbol'],
  auth: true,
  charges: true,
  cacheable: true,
  mayAnswerLater: true,
  handle({ dataset, caches, params, pool }, p) {
    const full = marketOf(dataset, params[0]);
    const answer = (m: SnapshotView): Reply => {
      const i = symbolAsOf(full, m, p.as_of, params[1]);
      return { shape: detailShape, result: { m, i, set: columnSet(p.fields) }, rows: 1 };
    };
    const view = caches.asOf(full, p.as_of, pool);
    return view instanceof Promise ? view.then(answer) : answer(view);
  },
});

export const detailBatchRoute = route({
  pattern: '/api/v1/:market/detail',
  operationId: 'getDetailBatch',
  summary: 'Latest snapshots of several symbols',
  description:
    '`data` is keyed by symbol in request order; symbols that do not exist (or, with `as_of`, have no row by then) are listed in `missing` (404 when none exists).',
  tag: 'Snapshots',
  query: { symbols: symbolList(true, BATCH_SIZE), fields: FIELDS, as_of: AS_OF },
  shape: detailBatchShape,
  example: { market: 'ashare', count: 1, data: { sh600000: SNAPSHOT_EXAMPLE }, missing: ['sh999999'] },
  problems: ['batch_too_large', 'unknown_symbol'],
  auth: true,
  charges: true,
  cacheable: true,
  mayAnswerLater: true,
  handle({ dataset, caches, params, plan, pool }, p) {
    checkBatchSize(p.symbols!, plan); // before any as-of work
    const answer = (m: SnapshotView): Reply => {
      const batch = batchOf(m, p.symbols!, plan);
      requireSome(batch, m);
      return {
        shape: detailBatchShape,
        result: { m, found: batch.found, missing: batch.missing, set: columnSet(p.fields) },
        rows: batch.found.length,
      };
    };
    const view = caches.asOf(marketOf(dataset, params[0]), p.as_of, pool);
    return view instanceof Promise ? view.then(answer) : answer(view);
  },
});
