// The OpenAPI 3.1 document, built from the route table and the same schemas that compile the serialisers.

import { KLINE_FIELDS, KLINE_SHORT_CODES, MACRO_INDICATORS, NUMERIC_SNAPSHOT_COLUMNS, SNAPSHOT_COLUMNS } from '../engine/columns.js';
import { MARKETS } from '../engine/markets.js';
import { Guard } from './guard/guard.js';
import { PLANS } from '../engine/plans.js';
import { PROBLEMS, type ProblemCode } from './problem.js';
import { ADJ_MODES } from './routes/kline-params.js';
import { routesFor } from './routes/index.js';
import type { Route } from './route.js';
import { SCHEMAS, type ShapeName } from './schemas/responses.js';

type Json = Record<string, unknown>;

const API_BASE = '/api/v1';

/** When each problem code is answered (decisions §2); typed so a new catalogue code needs a line here. */
const PROBLEM_WHEN: Record<ProblemCode, string> = {
  invalid_parameter: 'a malformed or out-of-range parameter, a parameter given twice or bad percent-encoding (`param` names it)',
  unknown_market: '`{market}` is not one of ' + MARKETS.join(', '),
  batch_too_large: "more symbols than the plan's batch size",
  unauthorized: '`X-API-Key` missing, unknown or disabled',
  csrf_failed: 'a dashboard write without a valid CSRF token (dashboard only)',
  not_found: 'an unknown route',
  unknown_symbol: 'the symbol (or every symbol of a batch) does not exist',
  macro_not_ready: 'the loaded snapshot holds no macro data',
  method_not_allowed: 'a method other than GET (`Allow: GET`)',
  rate_limited: "the key's requests-per-minute bucket is empty (`Retry-After`)",
  quota_exhausted: 'the key has no rows left today, on an endpoint that charges rows (`Retry-After`)',
  internal_error: 'an unexpected error; it is logged, no stack trace is answered',
  shutting_down: 'the server is draining before exit (`Retry-After`)',
  deadline_exceeded: 'the request outran the server deadline (default 5 s) and was abandoned (`Retry-After`)',
  mail_not_configured: 'a dashboard mail action with no mail transport set (dashboard only)',
  not_ready: 'no snapshot is loaded yet (`Retry-After`)',
};

// ---- components -----------------------------------------------------------------------

/** Component names of the response shapes: `klinesBatch` → `KlinesBatch`. */
const componentName = (shape: ShapeName): string => shape[0].toUpperCase() + shape.slice(1);
const schemaRef = (shape: ShapeName): Json => ({ $ref: `#/components/schemas/${componentName(shape)}` });
const headerRef = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

const nonNegative = { type: 'integer', minimum: 0 };
const HEADERS: Record<string, Json> = {
  'X-Data-Version': { description: 'Id of the snapshot that answered (every response once data is loaded).', required: true, schema: { type: 'string' } },
  'X-RateLimit-Limit': { description: "Requests per minute of the key's plan (absent for internal keys).", schema: nonNegative },
  'X-RateLimit-Remaining': { description: 'Whole requests left in the bucket after this one (absent for internal keys).', schema: nonNegative },
  'X-Quota-Limit': { description: "Rows a day of the key's plan (absent for internal keys).", schema: nonNegative },
  'X-Quota-Remaining': { description: "Rows left today after this response's charge (absent for internal keys).", schema: nonNegative },
  'Retry-After': { description: 'Whole seconds to wait before retrying (at least 1).', required: true, schema: { type: 'integer', minimum: 1 } },
};
const headerRefs = (...names: string[]): Json => Object.fromEntries(names.map((n) => [n, headerRef(n)]));
const LIMIT_HEADERS = ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-Quota-Limit', 'X-Quota-Remaining'];

// ---- parameters -----------------------------------------------------------------------

const param = (name: string, where: 'query' | 'path', schema: Json, description: string, required = where === 'path'): Json => ({ name, in: where, required, description, schema });
const query = (name: string, schema: Json, description: string, required = false): Json => param(name, 'query', schema, description, required);

/** A comma-separated list (`a,b,c`): OpenAPI's form style without explode. */
const listParam = (name: string, items: Json, description: string, required = false): Json => ({
  ...query(name, { type: 'array', items, minItems: 1 }, `Comma-separated list. ${description} Items are trimmed, duplicates dropped (first wins); an empty item is a 400.`, required),
  style: 'form',
  explode: false,
});

const marketParam = param('market', 'path', { type: 'string', enum: [...MARKETS] }, 'Market; any other value is 400 `unknown_market`.');
const symbolParam = param('symbol', 'path', { type: 'string' }, 'Symbol code, matched case-insensitively and answered in canonical case.');
const dateParam = (name: string, description: string): Json => query(name, { type: 'string', format: 'date' }, `${description} A real calendar date, YYYY-MM-DD.`);
const offsetParam = query('offset', { type: 'integer', minimum: 0, default: 0 }, 'Rows to skip. Digits only.');
const limitParam = (fallback: number, cap: string): Json => query('limit', { type: 'integer', minimum: 1, default: fallback }, `Rows to return. Digits only. ${cap}`);

const ROWS_PER_CALL = `A larger value is clamped to the plan's rows per call (free ${PLANS.free.rowsPerCall}, pro ${PLANS.pro.rowsPerCall}, enterprise ${PLANS.enterprise.rowsPerCall}); the response's \`limit\` shows the value used.`;
const BATCH_SIZE = `At most the plan's batch size (free ${PLANS.free.batch}, pro ${PLANS.pro.batch}, enterprise ${PLANS.enterprise.batch}); more is 400 \`batch_too_large\`.`;

const klineFieldItems = { type: 'string', enum: ['*', ...Object.keys(KLINE_SHORT_CODES), ...KLINE_FIELDS] };
const snapshotFieldItems = { type: 'string', enum: ['*', ...SNAPSHOT_COLUMNS.map((c) => c.name)] };
const adjParam = query('adj', { type: 'string', enum: [...ADJ_MODES], default: 'bfq' }, 'Adjustment: bfq as stored, qfq forward-adjusted (by the latest stored adj_factor), hfq backward-adjusted. Prices rounded to 4 decimals; volume and amount never adjusted.');
const klineWindow = [
  dateParam('start', 'First day of the window (inclusive); `offset` then skips forward.'),
  dateParam('end', 'Last day of the window (inclusive). Without `start` the window ends here (or at the latest row) and `offset` skips backward. `start` after `end` is a 400.'),
];

const whitelist = NUMERIC_SNAPSHOT_COLUMNS.join(', ');
/** `min_<column>` / `max_<column>`: an exploded object, since OpenAPI has no parameter-name patterns. */
const screenBounds: Json = {
  name: 'bounds',
  in: 'query',
  required: false,
  style: 'form',
  explode: true,
  description:
    `Inclusive bounds \`min_<column>\` and \`max_<column>\` (finite decimals), e.g. \`min_pe_ratio=0&max_pe_ratio=15\`. ` +
    `A row whose bounded column is null is excluded; a bounded column is added to the rows. A column outside the whitelist is 400 \`invalid_parameter\`. Whitelist: ${whitelist}.`,
  schema: { type: 'object', patternProperties: { [`^(min|max)_(${NUMERIC_SNAPSHOT_COLUMNS.join('|')})$`]: { type: 'number' } }, additionalProperties: false },
};

// ---- the per-route table --------------------------------------------------------------

interface RouteDoc {
  operationId: string;
  summary: string;
  description: string;
  parameters: Json[];
  shape: ShapeName;
  /** Problem codes this route answers beyond the ones every route shares. */
  codes: ProblemCode[];
}

const ROUTE_DOCS: Record<string, RouteDoc> = {
  '/api/v1/markets': {
    operationId: 'listMarkets',
    summary: 'Overview of all markets',
    description: 'Per market (ashare, hkstock, usstock, crypto, indices, etfs in that order): symbol count, data rows and date range.',
    parameters: [],
    shape: 'markets',
    codes: [],
  },
  '/api/v1/macro': {
    operationId: 'listMacro',
    summary: 'Macroeconomic series (GDP, CPI & PPI, PMI)',
    description: 'Rows ordered by indicator (gdp, cpi_ppi, pmi) then date ascending; `data` maps series keys to numbers.',
    parameters: [
      query('indicator', { type: 'string', enum: [...MACRO_INDICATORS] }, 'One indicator; all when omitted.'),
      query('start', { type: 'string', pattern: '^[0-9]{4}$' }, 'First year (inclusive), four digits.'),
      query('end', { type: 'string', pattern: '^[0-9]{4}$' }, 'Last year (inclusive), four digits; `start` after `end` is a 400.'),
      limitParam(100, 'Not capped by the plan.'),
      offsetParam,
    ],
    shape: 'macro',
    codes: ['macro_not_ready'],
  },
  '/api/v1/quota': {
    operationId: 'getQuota',
    summary: "The calling key's plan and today's usage",
    description: '`reset_at` is the next reset (00:00 in QUOTA_TZ). Internal keys answer `daily_quota` and `remaining` as null.',
    parameters: [],
    shape: 'quota',
    codes: [],
  },
  '/api/v1/:market/symbols': {
    operationId: 'listSymbols',
    summary: 'Search or list the symbols of a market',
    description: 'With `search`: exact code, then code prefix, then code substring, then name substring (case-insensitive), ties by symbol. Without: all symbols by symbol.',
    parameters: [marketParam, query('search', { type: 'string' }, 'Text matched against code and name.'), limitParam(50, 'A value above 100 is clamped to 100.'), offsetParam],
    shape: 'symbols',
    codes: [],
  },
  '/api/v1/:market/klines/:symbol': {
    operationId: 'getKlines',
    summary: 'Daily K-lines of one symbol',
    description: 'Rows by date ascending. `total` counts the rows of the date range before limit and offset.',
    parameters: [
      marketParam,
      symbolParam,
      ...klineWindow,
      listParam('fields', klineFieldItems, 'Short codes (o,h,l,c,v,a) or full names, or `*`; default all. symbol, date and adj_factor are always returned.'),
      adjParam,
      limitParam(100, ROWS_PER_CALL),
      offsetParam,
    ],
    shape: 'klines',
    codes: ['unknown_symbol'],
  },
  '/api/v1/:market/klines': {
    operationId: 'getKlinesBatch',
    summary: 'Daily K-lines of several symbols',
    description: '`data` is keyed by symbol in request order; symbols that do not exist are listed in `missing` (404 when none exists). `limit` counts rows per symbol.',
    parameters: [
      marketParam,
      listParam('symbols', { type: 'string' }, BATCH_SIZE, true),
      dateParam('date', 'One day; each symbol gets its row of that day or an empty array. Combined with `start` or `end` it is 400 `invalid_parameter`.'),
      ...klineWindow,
      listParam('fields', klineFieldItems, 'Short codes (o,h,l,c,v,a) or full names, or `*`; default close,volume.'),
      adjParam,
      limitParam(100, ROWS_PER_CALL),
      offsetParam,
    ],
    shape: 'klinesBatch',
    codes: ['batch_too_large', 'unknown_symbol'],
  },
  '/api/v1/:market/detail/:symbol': {
    operationId: 'getDetail',
    summary: 'Latest snapshot of one symbol',
    description: 'Columns in the order of the snapshot table; columns that do not apply to the market are null.',
    parameters: [marketParam, symbolParam, listParam('fields', snapshotFieldItems, 'Snapshot columns, or `*`; default all. symbol and date are always returned.')],
    shape: 'detail',
    codes: ['unknown_symbol'],
  },
  '/api/v1/:market/detail': {
    operationId: 'getDetailBatch',
    summary: 'Latest snapshots of several symbols',
    description: '`data` is keyed by symbol in request order; symbols that do not exist are listed in `missing` (404 when none exists).',
    parameters: [
      marketParam,
      listParam('symbols', { type: 'string' }, BATCH_SIZE, true),
      listParam('fields', snapshotFieldItems, 'Snapshot columns, or `*`; default all. symbol and date are always returned.'),
    ],
    shape: 'detailBatch',
    codes: ['batch_too_large', 'unknown_symbol'],
  },
  '/api/v1/:market/screen': {
    operationId: 'screen',
    summary: 'Filter, sort and page the latest snapshots of one market',
    description: '`total` counts all matches. Nulls sort last in both orders; ties by symbol ascending. Rows carry symbol, name, date, close, change_percent, the valuation, size and momentum columns, and any bounded or sort column.',
    parameters: [
      marketParam,
      screenBounds,
      query('sort', { type: 'string', enum: [...NUMERIC_SNAPSHOT_COLUMNS], default: 'change_percent' }, 'Column to sort by (the whitelist).'),
      query('order', { type: 'string', enum: ['asc', 'desc'], default: 'desc' }, 'Sort order.'),
      listParam('fields', snapshotFieldItems, 'Narrows the rows to these columns (symbol, name and date stay); `*` for all.'),
      limitParam(50, ROWS_PER_CALL),
      offsetParam,
    ],
    shape: 'screen',
    codes: [],
  },
};

// ---- responses ------------------------------------------------------------------------

/** One error response: the Problem schema narrowed to this status and these codes. */
function problemResponse(status: number, codes: ProblemCode[], headers: string[]): Json {
  const lines = codes.map((c) => `- \`${c}\`: ${PROBLEM_WHEN[c]}`);
  return {
    description: `${PROBLEMS[codes[0]].title}. \`code\` is one of:\n${lines.join('\n')}`,
    headers: headerRefs(...headers),
    content: {
      'application/problem+json': {
        schema: { allOf: [schemaRef('problem'), { type: 'object', properties: { status: { const: status }, code: { enum: codes } } }] },
      },
    },
  };
}

/** Every error a route can answer, grouped by status, in check order (decisions §2). */
function errorResponses(route: Route, doc: RouteDoc): Record<string, Json> {
  const codes: ProblemCode[] = ['invalid_parameter', 'internal_error', 'not_ready', 'shutting_down', 'deadline_exceeded', ...doc.codes];
  if (route.pattern.includes(':market')) codes.push('unknown_market');
  if (route.auth) codes.push('unauthorized', 'rate_limited');
  if (route.charges) codes.push('quota_exhausted');
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of Object.keys(PROBLEMS) as ProblemCode[]) if (codes.includes(code)) byStatus.set(PROBLEMS[code].status, [...(byStatus.get(PROBLEMS[code].status) ?? []), code]);
  const out: Record<string, Json> = {};
  for (const [status, group] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    // Past the key check every answer carries the limit headers; a 401 or 503 comes before it.
    const headers = status === 503 ? ['Retry-After'] : status === 401 ? ['X-Data-Version'] : status === 429 ? ['X-Data-Version', ...LIMIT_HEADERS, 'Retry-After'] : ['X-Data-Version', ...LIMIT_HEADERS];
    out[String(status)] = problemResponse(status, group, headers);
  }
  return out;
}

const ANY_OTHER_METHOD = 'Any method other than GET answers 405 `method_not_allowed` with `Allow: GET`.';

/** `/api/v1/:market/klines/:symbol` → `/{market}/klines/{symbol}` (relative to the server URL). */
const openApiPath = (pattern: string): string => pattern.slice(API_BASE.length).replace(/:([a-z_]+)/g, '{$1}');

function operation(route: Route, doc: RouteDoc): Json {
  const charging = route.charges
    ? "Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left."
    : 'Charges no rows, and is served even when the daily quota is exhausted.';
  return {
    operationId: doc.operationId,
    summary: doc.summary,
    description: `${doc.description}\n\n${charging}`,
    parameters: doc.parameters,
    responses: {
      '200': {
        description: 'OK',
        headers: headerRefs('X-Data-Version', ...(route.auth ? LIMIT_HEADERS : [])),
        content: { 'application/json': { schema: schemaRef(doc.shape) } },
      },
      ...errorResponses(route, doc),
    },
  };
}

/** The two paths that need no key: the health check (outside the base) and this document. */
function unauthenticatedPaths(): Record<string, Json> {
  const notReady = (codes: ProblemCode[]): Json => problemResponse(503, codes, ['Retry-After']);
  return {
    '/healthz': {
      servers: [{ url: '/', description: 'The health check lives outside the API base.' }],
      description: 'Any method other than GET answers 404 `not_found`.',
      get: {
        operationId: 'health',
        summary: 'Liveness and loaded data version',
        description: 'Needs no key. 200 once a snapshot is loaded, 503 before and while draining.',
        security: [],
        responses: {
          '200': { description: 'OK', headers: headerRefs('X-Data-Version'), content: { 'application/json': { schema: schemaRef('health') } } },
          '503': notReady(['shutting_down', 'not_ready']),
        },
      },
    },
    '/openapi.json': {
      get: {
        operationId: 'openapi',
        summary: 'This OpenAPI document',
        description: 'Needs no key.',
        security: [],
        responses: {
          '200': { description: 'OK', content: { 'application/json': { schema: { type: 'object', description: 'An OpenAPI 3.1 document' } } } },
        },
      },
    },
  };
}

const INFO_DESCRIPTION = [
  'Read-only queries over daily K-lines, latest detail snapshots, a screener and macroeconomic series.',
  '',
  '**The demo data is synthetic**: the built-in demo snapshot is seeded random data, not real market prices or statistics.',
  '',
  'Every request to `/api/v1` needs the `X-API-Key` header. Lists in query strings are comma-separated; a parameter given twice is a 400; unknown parameters are ignored; missing values are `null`.',
  `Plans (rows a day / requests a minute / batch symbols / rows per call): free ${PLANS.free.dailyQuota}/${PLANS.free.rpm}/${PLANS.free.batch}/${PLANS.free.rowsPerCall}, pro ${PLANS.pro.dailyQuota}/${PLANS.pro.rpm}/${PLANS.pro.batch}/${PLANS.pro.rowsPerCall}, enterprise ${PLANS.enterprise.dailyQuota}/${PLANS.enterprise.rpm}/${PLANS.enterprise.batch}/${PLANS.enterprise.rowsPerCall}.`,
  '',
  'Errors are RFC 9457 problem details (`application/problem+json`, schema `Problem`). Every `code`:',
  '',
  ...(Object.keys(PROBLEMS) as ProblemCode[]).map((c) => `- ${PROBLEMS[c].status} \`${c}\`: ${PROBLEM_WHEN[c]}`),
].join('\n');

/** The complete OpenAPI 3.1 document of the API, served at /api/v1/openapi.json. */
export function buildOpenApi(): Record<string, unknown> {
  const paths: Record<string, Json> = {};
  // Only the patterns and flags are read: the throwaway guard is never asked anything.
  for (const route of routesFor(new Guard())) {
    const doc = ROUTE_DOCS[route.pattern];
    if (doc === undefined) throw new Error(`openapi: no description for route ${route.pattern}`);
    paths[openApiPath(route.pattern)] = { description: ANY_OTHER_METHOD, get: operation(route, doc) };
  }
  Object.assign(paths, unauthenticatedPaths());
  return {
    openapi: '3.1.0',
    info: { title: 'Market data query service', version: '1.0.0', description: INFO_DESCRIPTION },
    servers: [{ url: API_BASE }],
    security: [{ ApiKey: [] }],
    paths,
    components: {
      securitySchemes: { ApiKey: { type: 'apiKey', in: 'header', name: 'X-API-Key', description: 'mdq_<id>_<secret>, obtained from an administrator.' } },
      headers: HEADERS,
      // The very schema objects the serialisers compile from: one source, no copies.
      schemas: Object.fromEntries((Object.keys(SCHEMAS) as ShapeName[]).map((s) => [componentName(s), SCHEMAS[s]])),
    },
  };
}
