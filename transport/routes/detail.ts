// GET /{market}/detail/{symbol} and GET /{market}/detail: latest snapshots.

import { SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import { projectSnapshotColumns } from '../../engine/kernels/project-fields.js';
import { badParam } from '../problem.js';
import { list, parseParams } from '../params/rules.js';
import type { Route } from '../route.js';
import type { BodyPart } from '../serialise/assemble.js';
import { snapshotTextCacheOf } from '../serialise/snapshot-text.js';
import { batchOf, marketOf, requireSome, symbolOf } from './lookup.js';

/** A column set and the key naming it in the rendered-row cache. */
interface ColumnSet {
  columns: string[];
  key: string;
}

const ALL: ColumnSet = { columns: SNAPSHOT_COLUMNS.map((c) => c.name), key: '*' };

/** Selected snapshot columns (all when `fields` is absent: the common case, computed once), or 400 naming the unknown item. */
export function snapshotColumns(items: string[] | null): ColumnSet {
  if (items === null) return ALL;
  const projection = projectSnapshotColumns(items);
  if (!projection.ok) throw badParam('fields', `unknown column '${projection.unknown}'`);
  return { columns: projection.fields, key: projection.fields.join(',') };
}

const SINGLE = { fields: list(false) };
const BATCH = { symbols: list(true), fields: list(false) };

export const detailRoute: Route = {
  pattern: '/api/v1/:market/detail/:symbol',
  paramNames: ['market', 'symbol'],
  auth: true,
  charges: true,
  cacheable: true,
  handle({ dataset, params, query }) {
    const m = marketOf(dataset, params[0]);
    const { columns, key } = snapshotColumns(parseParams(query, SINGLE).fields);
    const i = symbolOf(m, params[1]);
    const head = `{"market":"${m.market}","symbol":"${m.symbols.codes[i]}","count":1,"data":`; // codes need no escaping
    return { shape: 'detail', body: [head, snapshotTextCacheOf(dataset).row(m, i, columns, key), '}'], rows: 1 };
  },
};

export const detailBatchRoute: Route = {
  pattern: '/api/v1/:market/detail',
  paramNames: ['market'],
  auth: true,
  charges: true,
  cacheable: true,
  handle({ dataset, params, query, plan }) {
    const m = marketOf(dataset, params[0]);
    const p = parseParams(query, BATCH);
    const { columns, key } = snapshotColumns(p.fields);
    const batch = batchOf(m, p.symbols!, plan);
    requireSome(batch, m);
    const cache = snapshotTextCacheOf(dataset);
    const body: BodyPart[] = [`{"market":"${m.market}","count":${batch.found.length},"data":{`];
    batch.found.forEach((i, n) => body.push(`${n > 0 ? ',' : ''}"${m.symbols.codes[i]}":`, cache.row(m, i, columns, key)));
    body.push(batch.missing.length > 0 ? `},"missing":${JSON.stringify(batch.missing)}}` : '}}');
    return { shape: 'detailBatch', body, rows: batch.found.length };
  },
};
