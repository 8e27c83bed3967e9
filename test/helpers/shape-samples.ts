// Representative values of every response shape (awkward numbers, nulls, Unicode, empty lists), shared by the format tests.

import { SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import type { SchemaName } from '../../transport/schemas/responses.js';

/** Numbers whose text or bits are easy to get wrong: 0.1, 1e-7, -0, 2^53-1, 1e21. */
export const awkwardNumbers = {
  zero: 0,
  tenth: 0.1,
  tiny: 1e-7,
  negZero: -0,
  big: 9007199254740991,
  huge: 1e21,
  negative: -12.3456,
};

/** Names with CJK, quotes, escapes, control characters, an emoji, U+2028 and the empty string. */
export const names = [
  '浦发银行',
  'Sample "Fruit" Inc.',
  'back\\slash',
  'tab\there\nnewline',
  'emoji 📈',
  'bell\u0007',
  'line\u2028sep',
  '',
];

const allColumns = (fill: (name: string, i: number) => unknown): Record<string, unknown> =>
  Object.fromEntries(SNAPSHOT_COLUMNS.map((c, i) => [c.name, fill(c.name, i)]));
const numbers = Object.values(awkwardNumbers);

/** A snapshot with every column: strings from `names`, every fifth number null, the rest awkward. */
export const fullSnapshot = allColumns((name, i) =>
  name === 'symbol'
    ? 'sh600001'
    : name === 'date'
      ? '2025-03-14'
      : ['name', 'market_name', 'market_type'].includes(name)
        ? names[i % names.length]
        : i % 5 === 0
          ? null
          : numbers[i % numbers.length],
);
/** A snapshot with every column null but its symbol. */
export const nullSnapshot = allColumns((name) => (name === 'symbol' ? 'sh600008' : null));
/** A K-line row with every field, awkward values and one null. */
export const fullKline = {
  symbol: 'sh600001',
  date: '2025-03-14',
  open: 0.1,
  high: 1e-7,
  low: -0,
  close: null,
  volume: 9007199254740991,
  amount: 1e21,
  adj_factor: 2.157024,
};
/** A K-line row with only close selected. */
export const closeOnly = { symbol: 'sh600001', date: '2025-03-13', close: 6.18, adj_factor: 1 };

/** Sample values by schema name: each validates against its schema in transport/schemas/responses.ts. */
export const SAMPLES: Record<SchemaName, unknown[]> = {
  problem: [
    {
      type: 'about:blank',
      title: 'Bad Request',
      status: 400,
      code: 'invalid_parameter',
      detail: "fields: unknown column 'föö'",
      param: 'fields',
    },
    { type: 'about:blank', title: 'Not Found', status: 404, code: 'not_found', detail: 'no route for GET /api/v1/“x”' },
  ],
  health: [{ status: 'ok', data_version: '2025-06-30', usage_durable: true }],
  markets: [
    {
      count: 2,
      data: [
        { market: 'ashare', symbols: 3000, rows: 9007199254740991, start_date: '2000-01-04', end_date: '2025-06-30' },
        { market: 'crypto', symbols: 0, rows: 0, start_date: null, end_date: null },
      ],
    },
    { count: 0, data: [] },
  ],
  symbols: [
    {
      market: 'hkstock',
      total: 9,
      count: names.length + 1,
      limit: 50,
      offset: 0,
      data: [...names.map((name, i) => ({ symbol: `hk0070${i}`, name })), { symbol: 'hk09988', name: null }],
    },
  ],
  calendar: [
    {
      market: 'ashare',
      total: 2436,
      count: 3,
      limit: 3,
      offset: 2433,
      data: [{ date: '2025-06-26' }, { date: '2025-06-27' }, { date: '2025-06-30' }],
    },
    { market: 'crypto', total: 0, count: 0, limit: 100, offset: 0, data: [] },
  ],
  actions: [
    {
      market: 'ashare',
      symbol: 'sh600001',
      count: 3,
      data: [
        { date: '2024-01-02', adj_factor: 1.052631, prev_adj_factor: 1, ratio: 1.052631 },
        { date: '2025-02-20', adj_factor: 2.157024, prev_adj_factor: 1.078512, ratio: 2 },
        { date: '2025-03-14', adj_factor: 1e-7, prev_adj_factor: 9007199254740991, ratio: 0 },
      ],
    },
    { market: 'usstock', symbol: 'usMSFT', count: 0, data: [] },
  ],
  klines: [
    {
      market: 'ashare',
      symbol: 'sh600001',
      count: 2,
      total: 40,
      offset: 0,
      limit: 100,
      fields: ['symbol', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount', 'adj_factor'],
      data: [fullKline, { ...fullKline, open: null, high: null }],
    },
    {
      market: 'ashare',
      symbol: 'sh600001',
      count: 1,
      total: 1,
      offset: 3,
      limit: 500,
      fields: ['symbol', 'date', 'close', 'adj_factor'],
      data: [closeOnly],
    },
    {
      market: 'usstock',
      symbol: 'usAAPL',
      count: 0,
      total: 0,
      offset: 0,
      limit: 1,
      fields: ['symbol', 'date', 'adj_factor'],
      data: [],
    },
  ],
  crossSection: [
    {
      market: 'ashare',
      date: '2025-03-14',
      total: 3,
      count: 2,
      limit: 2,
      offset: 0,
      fields: ['symbol', 'date', 'open', 'high', 'low', 'close', 'volume', 'amount', 'adj_factor'],
      data: [fullKline, { ...fullKline, symbol: 'sz000002', open: null, high: null }],
    },
    {
      market: 'usstock',
      date: '2025-03-15',
      total: 0,
      count: 0,
      limit: 100,
      offset: 0,
      fields: ['symbol', 'date', 'close', 'adj_factor'],
      data: [],
    },
  ],
  klinesBatch: [
    {
      market: 'ashare',
      count: 2,
      limit: 100,
      offset: 0,
      fields: ['symbol', 'date', 'close', 'volume', 'adj_factor'],
      data: {
        sh600001: [{ symbol: 'sh600001', date: '2025-03-14', close: 6.3, volume: 0, adj_factor: 2.157024 }],
        sz000002: [{ symbol: 'sz000002', date: '2025-03-14', close: null, volume: null, adj_factor: 1 }],
      },
    },
    {
      market: 'ashare',
      count: 0,
      limit: 5,
      offset: 2,
      fields: ['symbol', 'date', 'adj_factor'],
      data: { sh600001: [] },
      missing: ['sh999999', '"quoted"'],
    },
  ],
  detail: [
    { market: 'ashare', symbol: 'sh600001', count: 1, data: fullSnapshot },
    { market: 'ashare', symbol: 'sh600008', count: 1, data: nullSnapshot },
    {
      market: 'ashare',
      symbol: 'sh600001',
      count: 1,
      data: { symbol: 'sh600001', date: '2025-03-14', pe_ratio: 1e-7, close_vs_52w_high: -0 },
    },
  ],
  detailBatch: [
    { market: 'ashare', count: 2, data: { sh600001: fullSnapshot, sh600008: nullSnapshot } },
    {
      market: 'hkstock',
      count: 1,
      data: { hk00700: { symbol: 'hk00700', date: null, wb_ratio: 0.1 } },
      missing: ['hk99999'],
    },
  ],
  screen: [
    {
      market: 'ashare',
      total: 3,
      count: 2,
      limit: 50,
      offset: 0,
      sort: 'change_percent',
      order: 'desc',
      data: [
        { symbol: 'sh600001', date: '2025-03-14', name: '示例长江', close: 6.3, change_percent: 1.9417 },
        { symbol: 'sh600007', date: null, name: null, close: null, change_percent: null },
      ],
    },
    { market: 'usstock', total: 0, count: 0, limit: 100, offset: 10, sort: 'pe_ratio', order: 'asc', data: [] },
  ],
  macro: [
    {
      count: 2,
      total: 5,
      limit: 100,
      offset: 0,
      data: [
        { indicator: 'gdp', date: '2024-12-31', data: { GDP_GDP: 1349084.0, GDP_GDP_YOY: 5.4, GDP_PRIMARY_YOY: null } },
        {
          indicator: 'cpi_ppi',
          date: '2025-01-31',
          data: { CPI_CPI_YOY: 0.1, PPI_PPI_YOY: -2.3, CPI_CPI_MOM: -0, CPI_CORE_YOY: 1e-7 },
        },
      ],
    },
    { count: 0, total: 0, limit: 1, offset: 9, data: [] },
  ],
  macroIndicators: [
    {
      count: 2,
      data: [
        {
          indicator: 'gdp',
          frequency: 'quarterly',
          start: '2015-03-31',
          end: '2024-12-31',
          keys: [
            { key: 'GDP_GDP', unit: '100 million CNY' },
            { key: 'GDP_GDP_YOY', unit: '%' },
            { key: 'GDP_“X”', unit: null },
          ],
        },
        { indicator: 'pmi', frequency: 'irregular', start: '2025-02-28', end: '2025-02-28', keys: [] },
      ],
    },
    { count: 0, data: [] },
  ],
  quota: [
    {
      plan: 'pro',
      org_name: 'Desk “A” ✓',
      daily_quota: 200000,
      used: 0,
      remaining: 200000,
      requests_today: 1,
      reset_at: '2025-03-16T00:00:00.000Z',
      export_quota: 20000000,
      export_used: 7199884,
      export_remaining: 12800116,
    },
    {
      plan: 'internal',
      org_name: '',
      daily_quota: null,
      used: 9007199254740991,
      remaining: null,
      requests_today: 0,
      reset_at: '2025-03-16T00:00:00Z',
      export_quota: null,
      export_used: 9007199254740991,
      export_remaining: null,
    },
    {
      plan: 'free',
      org_name: 'f',
      daily_quota: 5000,
      used: 5000,
      remaining: 0,
      requests_today: 31,
      reset_at: '2025-03-16T00:00:00Z',
      export_quota: 0,
      export_used: 0,
      export_remaining: 0,
    },
  ],
};
