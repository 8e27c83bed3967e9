// The OpenAPI 3.1 document, read from the route declarations, the shapes' schemas and the format registry: nothing here restates a parameter or a format.

import { MARKETS } from '../engine/markets.js';
import { DEFAULT_PLANS, type Plans } from '../engine/plans.js';
import { FORMAT_NAMES, FORMATS } from './answers/formats/index.js';
import { codeSamples, serviceCodeSamples } from './code-samples.js';
import { Guard } from './guard/guard.js';
import type { Json, Param, PatternParam } from './params/declare.js';
import { PROBLEMS, type ProblemCode, type ProblemEntry } from './problem.js';
import type { Route } from './route.js';
import { routesFor } from './routes/index.js';
import { SCHEMAS, type SchemaName } from './schemas/responses.js';
import { MIN_COMPRESSED_BYTES } from './serialise/encode.js';

const API_BASE = '/api/v1';

/**
 * The JSON media type as the document names it: plain, without the `; charset=utf-8` the answers
 * carry, so generated clients (openapi-fetch and others) find their JSON body under the key they
 * look for. It is listed first in every 200.
 */
const JSON_MEDIA = 'application/json';

/** When each problem code is answered; typed so a new catalogue code needs a line here. `whenOf` adds Retry-After where the catalogue has it. */
const PROBLEM_WHEN: Record<ProblemCode, string> = {
  invalid_parameter:
    'a malformed or out-of-range parameter, an unknown parameter, a parameter other than a list given twice, or bad percent-encoding (`param` names it)',
  unknown_market: `\`{market}\` is not one of ${MARKETS.join(', ')}`,
  batch_too_large: "more symbols than the plan's batch size",
  too_many_subscriptions:
    "a WebSocket subscription past the plan's subscriptions per connection (an `error` message of /api/v1/stream, never an HTTP answer)",
  upgrade_required: 'a GET of /api/v1/stream that does not ask to upgrade to a WebSocket (`Upgrade: websocket`)',
  malformed_request:
    'two `Host` or two `Content-Length` fields (RFC 9112), or, from nginx in front, a request line or header it cannot parse; the connection is closed after the answer',
  unauthorized: 'no key (`X-API-Key` or `Authorization: Bearer`), an unknown or disabled key, or two different keys',
  csrf_failed: 'a dashboard write without a valid CSRF token (dashboard only)',
  forbidden_host:
    'a dashboard request whose `Host` is not that of `ADMIN_ORIGIN`, or, with it unset, is not an IP address or `localhost` (dashboard only)',
  not_found: 'an unknown route',
  unknown_symbol: 'the symbol (or every symbol of a batch) does not exist',
  macro_not_ready: 'the loaded snapshot holds no macro data',
  method_not_allowed: 'a method other than GET or OPTIONS (`Allow` lists them)',
  not_acceptable:
    'no format matches `Accept` (and no `format=` was given), or CSV or Arrow asked of an answer without rows (/quota)',
  rate_limited: "the key's requests-per-minute bucket is empty",
  quota_exhausted: 'the key has no rows left today, on an endpoint that charges rows',
  not_in_plan: "the key's plan does not include this endpoint (exports on the free plan)",
  export_quota_exhausted:
    "the export holds more rows than the key's export allowance has left today (`detail` names both counts)",
  too_many_exports: 'the key has as many exports under way as one key may at once (EXPORTS_PER_KEY, default 4)',
  header_too_large:
    'the request line and header fields total more than 16 KiB; answered by nginx in front (deploy/nginx.conf), not by the server itself',
  http_version_not_supported:
    'a request line naming an HTTP version other than 1.0 or 1.1; answered by nginx in front (deploy/nginx.conf)',
  internal_error: 'an unexpected error; it is logged with the request id, no stack trace is answered',
  shutting_down: 'the server is draining before exit',
  deadline_exceeded: 'the request outran the server deadline (default 5 s) and was abandoned',
  mail_not_configured: 'a dashboard mail action with no mail transport set (dashboard only)',
  state_unwritable:
    'a dashboard write (a key created or changed, a contact) the state folder refused, a full disk mostly; nothing was changed (dashboard only)',
  not_ready: 'no snapshot is loaded yet',
  limits_unavailable:
    'the limits store shared by every instance (Redis, `REDIS_URL`) cannot be reached; keys with limits are refused until it answers again, internal keys are served',
};

/** The code's answers carry Retry-After (problem.ts). */
const waits = (code: ProblemCode): boolean => 'retryAfter' in PROBLEMS[code];
/** When `code` is answered, with the Retry-After it carries. */
const whenOf = (code: ProblemCode): string =>
  waits(code) ? `${PROBLEM_WHEN[code]} (\`Retry-After\`)` : PROBLEM_WHEN[code];

// ---- components -----------------------------------------------------------------------

/** Component names of the response shapes: `klinesBatch` → `KlinesBatch`. */
const componentName = (shape: string): string => shape[0].toUpperCase() + shape.slice(1);
const schemaRef = (shape: string): Json => ({ $ref: `#/components/schemas/${componentName(shape)}` });
const headerRef = (name: string): Json => ({ $ref: `#/components/headers/${name}` });

const nonNegative = { type: 'integer', minimum: 0 };
const text = { type: 'string' };
const HEADERS: Record<string, Json> = {
  'X-Data-Version': {
    description:
      'Id of the snapshot that answered (`<manifest id>.<content hash>`); on every response once data is loaded.',
    required: true,
    schema: text,
  },
  'X-Request-Id': {
    description:
      "The request id: the client's own `X-Request-Id` when it sent one of at most 128 visible ASCII characters, else a new one. Also `instance` of a problem body and in the server's log lines.",
    required: true,
    schema: text,
  },
  'X-RateLimit-Limit': {
    description: "Requests per minute of the key's plan (absent for internal keys).",
    schema: nonNegative,
  },
  'X-RateLimit-Remaining': {
    description: 'Whole requests left in the bucket after this one (absent for internal keys).',
    schema: nonNegative,
  },
  'X-RateLimit-Reset': {
    description: 'Seconds until the bucket is full again, rounded up (absent for internal keys).',
    schema: nonNegative,
  },
  'X-Quota-Limit': { description: "Rows a day of the key's plan (absent for internal keys).", schema: nonNegative },
  'X-Quota-Remaining': {
    description: "Rows left today after this response's charge (absent for internal keys).",
    schema: nonNegative,
  },
  'Retry-After': {
    description: 'Whole seconds to wait before retrying (at least 1).',
    required: true,
    schema: { type: 'integer', minimum: 1 },
  },
  ETag: {
    description:
      'Strong entity tag of this representation: it follows the data version, the request, the format and the encoding. Send it back in `If-None-Match` for a 304.',
    required: true,
    schema: text,
  },
  'Cache-Control': {
    description:
      '`private, no-cache`: a client may keep the answer but must revalidate it (cheap: a 304 has no body and charges no rows).',
    required: true,
    schema: text,
  },
  Vary: {
    description:
      '`Accept, Accept-Encoding` (and `Origin` when CORS_ORIGINS lists origins); `Accept` alone on an export (never compressed) and on a 406.',
    required: true,
    schema: text,
  },
  'Content-Encoding': {
    description: `\`br\` or \`gzip\` as \`Accept-Encoding\` prefers (q-values honoured); absent for bodies under ${MIN_COMPRESSED_BYTES} bytes.`,
    schema: { type: 'string', enum: ['br', 'gzip'] },
  },
  Link: {
    description:
      'RFC 8288 `<…>; rel="next"`: the same request for the next page, while rows remain (paged answers only).',
    schema: text,
  },
};
const headerRefs = (...names: string[]): Json => Object.fromEntries(names.map((n) => [n, headerRef(n)]));
const LIMIT_HEADERS = [
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'X-Quota-Limit',
  'X-Quota-Remaining',
];

// ---- parameters -----------------------------------------------------------------------

/** Path parameters by name (the patterns name them). */
const PATH_PARAMS: Record<string, Json> = {
  market: {
    name: 'market',
    in: 'path',
    required: true,
    description: 'Market; any other value is 400 `unknown_market`.',
    schema: { type: 'string', enum: [...MARKETS] },
  },
  symbol: {
    name: 'symbol',
    in: 'path',
    required: true,
    description: 'Symbol code, matched case-insensitively and answered in canonical case.',
    schema: { type: 'string' },
  },
};

/**
 * The OpenAPI parameter of one declared query parameter. A list keeps OpenAPI's default style
 * (form, exploded: `symbols=a&symbols=b`), which the server reads as the comma list it also takes.
 */
function queryParam(name: string, p: Param<unknown>): Json {
  const out: Json = { name, in: 'query', required: p.required, description: p.doc, schema: p.schema };
  if (p.list) Object.assign(out, { style: 'form', explode: true });
  if (p.example !== undefined) out.example = p.example;
  return out;
}

/** A parameter family (`min_<column>`): each member its own optional parameter, as generators need names. */
const patternParams = (p: PatternParam): Json[] =>
  p.members.map((name) => ({ name, in: 'query', required: false, description: p.memberDoc(name), schema: p.schema }));

const HEADER_PARAMS: Json[] = [
  {
    name: 'If-None-Match',
    in: 'header',
    required: false,
    description:
      'ETags of answers held; a match answers 304 with no body (it takes a token, charges no rows). `*` matches any. A malformed value matches nothing.',
    schema: text,
  },
  {
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description: 'Your id for this request (at most 128 visible ASCII characters), echoed in `X-Request-Id`.',
    schema: { type: 'string', maxLength: 128 },
  },
];

// ---- responses ------------------------------------------------------------------------

/** One error response: the Problem schema narrowed to this status and these codes; `headers` besides X-Request-Id, and Retry-After or Vary when a code carries it. */
function problemResponse(status: number, codes: ProblemCode[], headers: string[]): Json {
  const lines = codes.map((c) => `- \`${c}\`: ${whenOf(c)}`);
  if (codes.some(waits)) headers = [...headers, 'Retry-After'];
  if (codes.some((c) => 'vary' in ((PROBLEMS[c] as ProblemEntry).headers ?? {}))) headers = [...headers, 'Vary'];
  const first = codes[0];
  return {
    description: `${PROBLEMS[first].title}. \`code\` is one of:\n${lines.join('\n')}`,
    headers: headerRefs('X-Request-Id', ...headers),
    content: {
      'application/problem+json': {
        schema: {
          allOf: [
            schemaRef('problem'),
            { type: 'object', properties: { status: { const: status }, code: { enum: codes } } },
          ],
        },
        example: {
          type: 'about:blank',
          title: PROBLEMS[first].title,
          status,
          code: first,
          detail: `an example of ${first}`,
          instance: '3f9a1c02b7de-1',
        },
      },
    },
  };
}

/** Every error a route can answer, grouped by status, in check order (route, method, key, rate, quota, parameters, existence). */
function errorResponses(route: Route): Record<string, Json> {
  const codes: ProblemCode[] = [
    'invalid_parameter',
    'not_acceptable',
    'internal_error',
    'not_ready',
    'shutting_down',
    ...route.problems,
  ];
  if (route.mayAnswerLater) codes.push('deadline_exceeded');
  if (route.pathNames.includes('market')) codes.push('unknown_market');
  if (route.auth) codes.push('unauthorized', 'rate_limited', 'limits_unavailable');
  if (route.charges) codes.push('quota_exhausted');
  const byStatus = new Map<number, ProblemCode[]>();
  for (const code of Object.keys(PROBLEMS) as ProblemCode[])
    if (codes.includes(code))
      byStatus.set(PROBLEMS[code].status, [...(byStatus.get(PROBLEMS[code].status) ?? []), code]);
  const out: Record<string, Json> = {};
  for (const [status, group] of [...byStatus].sort((a, b) => a[0] - b[0])) {
    // Past the key check every answer carries the limit headers; a 401 or 503 comes before it.
    const headers = status === 503 ? [] : status === 401 ? ['X-Data-Version'] : ['X-Data-Version', ...LIMIT_HEADERS];
    out[String(status)] = problemResponse(status, group, headers);
  }
  return out;
}

/** The 200's content: every format the shape offers, in registry order, under its Content-Type (the JSON one with the route's example). */
function contentOf(route: Route): Json {
  if (route.stream !== undefined)
    return Object.fromEntries(
      route.stream.types.map((type) => [type, { schema: { type: 'string', format: 'binary' } }]),
    );
  const others = route.otherShapes ?? [];
  const shapes = [route.shape, ...others.map((o) => o.shape)];
  const examples = [route.example, ...others.map((o) => o.example)];
  const schema = shapes.length === 1 ? schemaRef(route.shape.name) : { oneOf: shapes.map((s) => schemaRef(s.name)) };
  const content: Json = {};
  for (const f of FORMATS)
    if (f.refusal(route.shape) === null)
      content[f.name === 'json' ? JSON_MEDIA : f.contentType] = f.openApi(shapes, schema, examples);
  return content;
}

const ANY_OTHER_METHOD =
  'OPTIONS answers a CORS preflight (204). Any other method than GET answers 405 `method_not_allowed`.';

/** `/api/v1/:market/klines/:symbol` → `/{market}/klines/{symbol}` (relative to the server URL). */
const openApiPath = (pattern: string): string => pattern.slice(API_BASE.length).replace(/:([a-z_]+)/g, '{$1}');

function operation(route: Route): Json {
  const charging = route.charges
    ? "Charges the response's `count` rows to the key's daily quota; refused with 429 `quota_exhausted` when no rows are left."
    : 'Charges no rows, and is served even when the daily quota is exhausted.';
  const parameters = [
    ...route.pathNames.map((name) => PATH_PARAMS[name]),
    ...Object.entries(route.query).map(([name, p]) => queryParam(name, p)),
    ...(route.patternQuery ? patternParams(route.patternQuery) : []),
    ...HEADER_PARAMS,
  ];
  const successHeaders = [
    'X-Data-Version',
    'X-Request-Id',
    ...(route.auth ? LIMIT_HEADERS : []),
    'ETag',
    'Cache-Control',
    'Vary',
    'Content-Encoding',
    ...(route.paged ? ['Link'] : []),
  ];
  const family = route.patternQuery === undefined ? '' : `\n\n${route.patternQuery.doc}`;
  const samples = codeSamples(route.operationId);
  return {
    operationId: route.operationId,
    summary: route.summary,
    description: `${route.description}${family}\n\n${charging}`,
    tags: [route.tag, ...(route.moreTags ?? [])],
    ...(samples === null ? {} : { 'x-codeSamples': samples }),
    parameters,
    responses: {
      '200': { description: 'OK', headers: headerRefs(...successHeaders), content: contentOf(route) },
      '304': {
        description: 'Not Modified: `If-None-Match` named the current ETag. No body; no rows charged.',
        headers: headerRefs(
          'X-Data-Version',
          'X-Request-Id',
          ...(route.auth ? LIMIT_HEADERS : []),
          'ETag',
          'Cache-Control',
          'Vary',
        ),
      },
      ...errorResponses(route),
    },
  };
}

/** A GET that needs no key, answering 200 with `example` of `schema` in `type`. */
function serviceGet(o: {
  operationId: string;
  summary: string;
  description?: string;
  type?: string;
  schema: Json;
  example: unknown;
}): Json {
  return {
    operationId: o.operationId,
    summary: o.summary,
    description: o.description ?? 'Needs no key.',
    tags: ['Service'],
    security: [],
    responses: {
      '200': {
        description: 'OK',
        headers: headerRefs('X-Request-Id'),
        content: { [o.type ?? JSON_MEDIA]: { schema: o.schema, example: o.example } },
      },
    },
  };
}

/** Where the service paths outside the API base are documented from. */
const OUTSIDE_BASE = {
  servers: [{ url: '/', description: 'The service endpoints live outside the API base.' }],
  description: ANY_OTHER_METHOD,
};

/** /healthz (and /readyz): ready once a snapshot is loaded, 503 before and while draining. */
function healthGet(): Json {
  return {
    operationId: 'health',
    summary: 'Readiness and loaded data version',
    description:
      'Needs no key. 200 once a snapshot is loaded, 503 before and while draining. `usage_durable` is false while the state folder refuses writes (a full disk): the data is served all the same, and the usage counts are held in memory until there is room.',
    tags: ['Service'],
    security: [],
    responses: {
      '200': {
        description: 'OK',
        headers: headerRefs('X-Data-Version', 'X-Request-Id'),
        content: {
          [JSON_MEDIA]: {
            schema: schemaRef('health'),
            example: { status: 'ok', data_version: '2025-06-30.aff0387e12bc', usage_durable: true },
          },
        },
      },
      '503': problemResponse(503, ['not_ready', 'shutting_down'], []),
    },
  };
}

/**
 * The paths that need no key: health, version and metrics (outside the base), this document, the
 * flatbuffers schema, the reference page; each with its curl line.
 */
function unauthenticatedPaths(): Record<string, Json> {
  const paths = servicePaths();
  for (const [path, item] of Object.entries(paths))
    (item.get as Json)['x-codeSamples'] = serviceCodeSamples(item.servers === undefined ? `${API_BASE}${path}` : path);
  return paths;
}

function servicePaths(): Record<string, Json> {
  const health = healthGet();
  const document = (get: Json): Json => ({ description: ANY_OTHER_METHOD, get });
  return {
    '/healthz': { ...OUTSIDE_BASE, get: health },
    '/readyz': {
      ...OUTSIDE_BASE,
      get: { ...health, operationId: 'ready', summary: 'Readiness (the same answer as /healthz)' },
    },
    '/livez': {
      ...OUTSIDE_BASE,
      get: serviceGet({
        operationId: 'live',
        summary: 'Liveness: the process is up',
        description: 'Needs no key. 200 whenever the process can answer, draining included.',
        schema: { type: 'object', properties: { status: { const: 'ok' } }, required: ['status'] },
        example: { status: 'ok' },
      }),
    },
    '/version': {
      ...OUTSIDE_BASE,
      get: serviceGet({
        operationId: 'version',
        summary: 'Service version, commit, Node.js and data version',
        schema: {
          type: 'object',
          properties: {
            version: { type: 'string' },
            commit: { type: 'string' },
            node: { type: 'string' },
            data_version: { type: ['string', 'null'] },
          },
          required: ['version', 'commit', 'node', 'data_version'],
        },
        example: { version: '0.1.0', commit: '3eb77b5', node: 'v20.20.2', data_version: '2025-06-30.aff0387e12bc' },
      }),
    },
    '/metrics': {
      ...OUTSIDE_BASE,
      get: serviceGet({
        operationId: 'metrics',
        summary: 'Prometheus metrics',
        description:
          'Needs no key; absent (404) when the server runs with METRICS=0. Requests by route, status and plan, latency histogram, rows served, answer-cache lookups, reloads, data version, event-loop delay, pool queue.',
        type: 'text/plain; version=0.0.4; charset=utf-8',
        schema: { type: 'string' },
        example: 'mdq_http_requests_total{route="/api/v1/markets",status="200",plan="pro"} 12',
      }),
    },
    '/openapi.json': document(
      serviceGet({
        operationId: 'openapi',
        summary: 'This OpenAPI document',
        schema: { type: 'object', description: 'An OpenAPI 3.1 document' },
        example: { openapi: '3.1.0' },
      }),
    ),
    '/asyncapi.json': document(
      serviceGet({
        operationId: 'asyncapi',
        summary: 'The AsyncAPI 3 document of the push over WebSocket at /api/v1/stream',
        description:
          'Needs no key. Every client and server message of `GET /api/v1/stream` (a WebSocket on this port: editions, the rows each adds, standing screens) as JSON Schemas, with the stream limits of the plans in force.',
        schema: { type: 'object', description: 'An AsyncAPI 3.0 document' },
        example: { asyncapi: '3.0.0' },
      }),
    ),
    '/schema.fbs': document(
      serviceGet({
        operationId: 'flatbuffersSchema',
        summary: 'The FlatBuffers schema of `format=flatbuffers` answers',
        type: 'text/plain; charset=utf-8',
        schema: { type: 'string' },
        example: 'namespace mdq;',
      }),
    ),
    '/docs': {
      ...document(
        serviceGet({
          operationId: 'apiReference',
          summary: 'This document rendered as a page (Swagger UI, served by the service itself: no CDN)',
          type: 'text/html; charset=utf-8',
          schema: { type: 'string' },
          example: '<!doctype html>',
        }),
      ),
      servers: OUTSIDE_BASE.servers,
    },
  };
}

/** The plans in force, one per line: `name` rows a day / requests a minute / batch symbols / rows per call / export rows a day. */
function plansText(plans: Plans): string {
  const figure = (n: number | null): string => (n === null ? 'unlimited' : String(n));
  const lines = plans.list.map(
    (p) =>
      `- \`${p.name}\`: ${figure(p.dailyQuota)} / ${figure(p.rpm)} / ${p.batch} / ${p.rowsPerCall} / ${p.exportRows === 0 ? 'none' : figure(p.exportRows)}`,
  );
  return [
    'Plans (rows a day / requests a minute / batch symbols / rows per call / export rows a day):',
    '',
    ...lines,
  ].join('\n');
}

const infoDescription = (plans: Plans): string =>
  [
    'Read-only queries over daily K-lines, latest detail snapshots, a screener and macroeconomic series.',
    '',
    '**The demo data is synthetic**: the built-in demo snapshot is seeded random data, not real market prices or statistics.',
    '',
    'Every request to `/api/v1` needs a key, as `X-API-Key: <key>` or `Authorization: Bearer <key>` (never in the query string). Lists in query strings are comma-separated, or the parameter repeated (`symbols=a&symbols=b`); any other parameter given twice, or one the endpoint does not know, is a 400; missing values are `null`.',
    '',
    plansText(plans),
    '',
    'Push over WebSocket: `GET /api/v1/stream` upgrades to a WebSocket on this port (the key in the upgrade, or a first `auth` message) that pushes new editions, the rows each one adds (`bars`) and standing screens re-run on every edition. Its messages are described by the AsyncAPI document at [/api/v1/asyncapi.json](/api/v1/asyncapi.json) (no key).',
    '',
    `Formats: \`format=${FORMAT_NAMES.join('|')}\`, or \`Accept\` (the parameter wins; JSON for \`*/*\` or no \`Accept\`; 406 when nothing offered is acceptable). Encodings: \`br\` and \`gzip\` by \`Accept-Encoding\`. Every 200 has a strong \`ETag\`; \`If-None-Match\` revalidates for free (304). CORS is open to the origins CORS_ORIGINS lists (default any).`,
    '',
    'Errors are RFC 9457 problem details (`application/problem+json`, schema `Problem`, `instance` = the request id), whatever the format asked. Every `code`:',
    '',
    ...(Object.keys(PROBLEMS) as ProblemCode[]).map((c) => `- ${PROBLEMS[c].status} \`${c}\`: ${whenOf(c)}`),
  ].join('\n');

/** The complete OpenAPI 3.1 document of the API, served at /api/v1/openapi.json; its description lists `plans` (the plans in force). */
export function buildOpenApi(plans: Plans = DEFAULT_PLANS): Record<string, unknown> {
  const paths: Record<string, Json> = {};
  const routes = routesFor(new Guard()); // only the declarations are read: the throwaway guard is never asked anything
  for (const route of routes)
    paths[openApiPath(route.pattern)] = { description: ANY_OTHER_METHOD, get: operation(route) };
  Object.assign(paths, unauthenticatedPaths());
  const tags = [...new Set(routes.flatMap((r) => [r.tag, ...(r.moreTags ?? [])])), 'Service'].map((name) => ({
    name,
    description: TAG_DOCS[name] ?? name,
  }));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Market data query service',
      version: '1.0.0',
      description: infoDescription(plans),
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: API_BASE }],
    security: [{ ApiKey: [] }, { Bearer: [] }],
    tags,
    paths,
    components: {
      securitySchemes: {
        ApiKey: {
          type: 'apiKey',
          in: 'header',
          name: 'X-API-Key',
          description: 'mdq_<id>_<secret>, obtained from an administrator.',
        },
        Bearer: {
          type: 'http',
          scheme: 'bearer',
          description:
            'The same key as a bearer token (`Authorization: Bearer mdq_…`). Sent together with a different X-API-Key: 401.',
        },
      },
      headers: HEADERS,
      // The very schema objects the serialisers compile from: one source, no copies.
      schemas: Object.fromEntries((Object.keys(SCHEMAS) as SchemaName[]).map((s) => [componentName(s), SCHEMAS[s]])),
    },
  };
}

const TAG_DOCS: Record<string, string> = {
  Reference: 'Markets, symbols and trading calendars.',
  'K-lines': 'Daily candles of one or several symbols, with price adjustment and its events.',
  Snapshots: 'The latest derived snapshot of symbols.',
  Screens: 'Filtering and sorting the snapshots of one market.',
  'Bulk data':
    "A market's whole day and whole histories. The cross-section: `GET /{market}/klines?date=YYYY-MM-DD` without `symbols` answers every symbol's row of that day, paged (`Link: rel=\"next\"`; the clients' `cross_section(…, all=True)` and `crossSectionRows` follow it). The export: `GET /{market}/export` streams every symbol's history (or the named ones) as CSV, Arrow or NDJSON in one answer, drawing on the plan's daily export allowance instead of the row quota.",
  Macro: 'Macroeconomic series.',
  Account: "The calling key's plan and usage.",
  Service: 'Health and machine-readable documents (no key).',
};
