// The OpenAPI document's `x-codeSamples`: one example request per data operation, written as curl,
// as the Python client and as the TypeScript client, all three from one description of the call;
// a curl line for each service path.

/** A query value as a sample shows it: lists go out comma-separated in the URL, as lists in code. */
type SampleValue = string | number | readonly string[];

/** One operation's example: the client method (Python, TypeScript), its positional arguments (path values, a batch's symbols, a day), its query, and what it reads into. */
interface SampleCall {
  python: string;
  ts: string;
  /** Positional arguments in the clients' order: path values first (market, symbol), then a batch's symbols or a cross-section's day. */
  args: readonly SampleValue[];
  /** The URL's path under /api/v1, with the values filled in. */
  path: string;
  /** The query: in the URL (with `args` that are query parameters, see `queryArgs`) and as keyword arguments in code. */
  query?: Readonly<Record<string, SampleValue>>;
  /** Positional arguments that travel in the query string (a batch's `symbols`, a cross-section's `date`). */
  queryArgs?: Readonly<Record<string, SampleValue>>;
  /** The variable the answer goes in. */
  into: string;
  /** The Python line's tail after the call (e.g. `.to_pandas()`), and whether the Python call pages through everything (`all=True`). */
  pyTail?: string;
  pyAll?: boolean;
  /** The TypeScript call collects every page of an iterator (`collect(client.…Rows(…))`). */
  tsRows?: string;
}

/** The example call of each operation, by operationId (an operation without one gets no samples, and a test says so). */
const CALLS: Record<string, SampleCall> = {
  listMarkets: { python: 'markets', ts: 'markets', args: [], path: '/markets', into: 'markets' },
  listMacro: {
    python: 'macro',
    ts: 'macro',
    args: [],
    path: '/macro',
    query: { indicator: 'gdp', start: '2020' },
    into: 'gdp',
    pyAll: true,
    tsRows: 'macroRows',
  },
  listMacroIndicators: {
    python: 'macro_indicators',
    ts: 'macroIndicators',
    args: [],
    path: '/macro/indicators',
    into: 'indicators',
  },
  getQuota: { python: 'quota', ts: 'quota', args: [], path: '/quota', into: 'quota' },
  listSymbols: {
    python: 'symbols',
    ts: 'symbols',
    args: ['ashare'],
    path: '/ashare/symbols',
    query: { search: 'sh6', limit: 10 },
    into: 'found',
  },
  getCalendar: {
    python: 'calendar',
    ts: 'calendar',
    args: ['ashare'],
    path: '/ashare/calendar',
    query: { start: '2025-01-01' },
    into: 'days',
    pyAll: true,
    tsRows: 'calendarRows',
  },
  getActions: {
    python: 'actions',
    ts: 'actions',
    args: ['ashare', 'sh600001'],
    path: '/ashare/actions/sh600001',
    into: 'events',
  },
  getKlines: {
    python: 'klines',
    ts: 'klines',
    args: ['ashare', 'sh600001'],
    path: '/ashare/klines/sh600001',
    query: { adj: 'qfq', limit: 5 },
    into: 'bars',
  },
  getKlinesBatch: {
    python: 'klines_batch',
    ts: 'klinesBatch',
    args: ['ashare', ['sh600001', '000002.SZ']],
    queryArgs: { symbols: ['sh600001', '000002.SZ'] },
    path: '/ashare/klines',
    query: { period: 'month', adj: 'qfq', fields: ['*'] },
    into: 'bars',
    pyTail: '.to_pandas()',
  },
  exportKlines: {
    python: 'export',
    ts: 'export',
    args: ['ashare'],
    path: '/ashare/export',
    query: { start: '2024-01-01', format: 'arrow' },
    into: 'stream',
  },
  getDetail: {
    python: 'detail',
    ts: 'detail',
    args: ['hkstock', '0700.HK'],
    path: '/hkstock/detail/0700.HK',
    into: 'snap',
  },
  getDetailBatch: {
    python: 'detail_batch',
    ts: 'detailBatch',
    args: ['ashare', ['sh600001', 'sz000002']],
    queryArgs: { symbols: ['sh600001', 'sz000002'] },
    path: '/ashare/detail',
    query: { fields: ['name', 'close', 'pe_ratio'] },
    into: 'snaps',
  },
  screen: {
    python: 'screen',
    ts: 'screen',
    args: ['ashare'],
    path: '/ashare/screen',
    query: { sort: 'total_market_cap' },
    into: 'cheap',
    pyAll: true,
    tsRows: 'screenRows',
  },
};

/** The cross-section: the batch route without `symbols`, shown beside the batch samples (it has no operation of its own). */
const CROSS_SECTION: SampleCall = {
  python: 'cross_section',
  ts: 'crossSection',
  args: ['ashare', '2025-03-14'],
  queryArgs: { date: '2025-03-14' },
  path: '/ashare/klines',
  into: 'day',
  pyAll: true,
  pyTail: '.to_pandas()',
  tsRows: 'crossSectionRows',
};

/** The screen's bounds, a family the clients take as one `bounds` object. */
const SCREEN_BOUNDS = { pe_ratio: { min: 0, max: 15 } };

const BASE = 'http://127.0.0.1:8080';

const pyValue = (v: SampleValue): string =>
  typeof v === 'number' ? String(v) : typeof v === 'string' ? JSON.stringify(v) : `[${v.map(pyValue).join(', ')}]`;
const tsValue = (v: SampleValue): string =>
  typeof v === 'number' ? String(v) : typeof v === 'string' ? `'${v}'` : `[${v.map(tsValue).join(', ')}]`;

/** The sample's URL: path, positional query arguments, the query, and for the screen its bounds. */
function urlOf(call: SampleCall, bounds: boolean): string {
  const pairs = Object.entries({ ...call.queryArgs, ...call.query }).map(
    ([name, v]) => `${name}=${Array.isArray(v) ? v.join(',') : String(v)}`,
  );
  if (bounds)
    for (const [column, { min, max }] of Object.entries(SCREEN_BOUNDS))
      pairs.push(`min_${column}=${min}`, `max_${column}=${max}`);
  return `${BASE}/api/v1${call.path}${pairs.length > 0 ? `?${pairs.join('&')}` : ''}`;
}

function curl(call: SampleCall, bounds: boolean): string {
  const out = call.python === 'export' ? ` -o ashare.arrows` : '';
  return `curl -H "X-API-Key: $MDQ_KEY"${out} '${urlOf(call, bounds)}'`;
}

function python(call: SampleCall, bounds: boolean): string {
  const args = call.args.map(pyValue);
  for (const [name, v] of Object.entries(call.query ?? {})) args.push(`${name}=${pyValue(v)}`);
  if (bounds)
    args.push(
      `bounds=${JSON.stringify(SCREEN_BOUNDS)
        .replace(/"(\w+)":/g, '"$1": ')
        .replace(/,/g, ', ')}`,
    );
  if (call.pyAll) args.push('all=True');
  if (call.python === 'export') args.splice(1, 0, '"ashare.arrows"');
  return [
    'import os',
    'from mdq_client import Client',
    '',
    'client = Client("http://127.0.0.1:8080", os.environ["MDQ_KEY"])',
    `${call.into} = client.${call.python}(${args.join(', ')})${call.pyTail ?? ''}`,
  ].join('\n');
}

function typescript(call: SampleCall, bounds: boolean): string {
  const args = call.args.map(tsValue);
  const query = Object.entries(call.query ?? {}).map(([name, v]) => `${name}: ${tsValue(v)}`);
  if (bounds) query.push('bounds: { pe_ratio: { min: 0, max: 15 } }');
  if (query.length > 0) args.push(`{ ${query.join(', ')} }`);
  const collect = call.tsRows !== undefined;
  const invocation = collect
    ? `await collect(client.${call.tsRows}(${args.join(', ')}))`
    : `await client.${call.ts}(${args.join(', ')})`;
  return [
    `import { Client${collect ? ', collect' : ''} } from '@mdq/client';`,
    '',
    "const client = new Client({ baseUrl: 'http://127.0.0.1:8080', key: process.env.MDQ_KEY! });",
    `const ${call.into} = ${invocation};`,
  ].join('\n');
}

/** One `x-codeSamples` entry (Redoc's and Swagger UI plugins' convention: lang, label, source). */
interface CodeSample {
  lang: string;
  label: string;
  source: string;
}

function samplesOf(call: SampleCall, bounds: boolean, suffix = ''): CodeSample[] {
  return [
    { lang: 'Shell', label: `curl${suffix}`, source: curl(call, bounds) },
    { lang: 'Python', label: `Python${suffix}`, source: python(call, bounds) },
    { lang: 'TypeScript', label: `TypeScript${suffix}`, source: typescript(call, bounds) },
  ];
}

/** The `x-codeSamples` of an operation (curl, Python, TypeScript), or null when none is written for it. */
export function codeSamples(operationId: string): CodeSample[] | null {
  const call = Object.hasOwn(CALLS, operationId) ? CALLS[operationId] : undefined;
  if (call === undefined) return null;
  const samples = samplesOf(call, operationId === 'screen');
  if (operationId === 'getKlinesBatch') samples.push(...samplesOf(CROSS_SECTION, false, ': a whole day'));
  return samples;
}

/** The `x-codeSamples` of a service path (no key, no client method): one curl line of its whole URL (`path` from the host). */
export function serviceCodeSamples(path: string): CodeSample[] {
  return [{ lang: 'Shell', label: 'curl', source: `curl '${BASE}${path}'` }];
}
