// The column catalogues of the spec: K-line fields and detail-snapshot columns.

import type { Market } from './markets.js';

/** K-line price and size fields in response order, with their short codes. */
export const KLINE_FIELDS = ['open', 'high', 'low', 'close', 'volume', 'amount'] as const;
export type KlineField = (typeof KLINE_FIELDS)[number];
export const KLINE_SHORT_CODES: Readonly<Record<string, KlineField>> = {
  o: 'open',
  h: 'high',
  l: 'low',
  c: 'close',
  v: 'volume',
  a: 'amount',
};
/** What each K-line column means, with its unit (published in the OpenAPI document). */
export const KLINE_FIELD_DOCS: Readonly<Record<KlineField | 'symbol' | 'date' | 'adj_factor', string>> = {
  symbol: 'Symbol code, canonical case.',
  date: 'Trading day, YYYY-MM-DD.',
  open: 'Opening price, local currency (adjusted as `adj` asks, 4 decimals).',
  high: 'Highest price, local currency (adjusted as `adj` asks).',
  low: 'Lowest price, local currency (adjusted as `adj` asks).',
  close: 'Closing price, local currency (adjusted as `adj` asks).',
  volume: 'Traded volume, in lots (never adjusted).',
  amount: 'Traded amount, local currency (never adjusted).',
  adj_factor: 'Adjustment factor = hfq close / bfq close (1 when the snapshot gives none).',
};
/** Fields whose values an adjustment (qfq/hfq) rescales; volume and amount never are. */
export const PRICE_FIELDS: ReadonlySet<KlineField> = new Set(['open', 'high', 'low', 'close']);

/** Where a snapshot column's value comes from: the key, day T's K-line row, derived from the history, fundamentals.csv, or symbols.csv. */
export type ColumnSource = 'identifier' | 'kline' | 'derived' | 'fundamental' | 'symbols';

export interface SnapshotColumn {
  readonly name: string;
  readonly category: string;
  readonly kind: 'string' | 'number';
  readonly source: ColumnSource;
  /** What it means, with its unit (published in the OpenAPI document). */
  readonly doc: string;
  /** Markets the column applies to; elsewhere it is always null. Absent: every market. */
  readonly only?: readonly Market[];
}

const col = (
  name: string,
  category: string,
  kind: 'string' | 'number',
  source: ColumnSource,
  doc: string,
  only?: Market[],
): SnapshotColumn => (only ? { name, category, kind, source, doc, only } : { name, category, kind, source, doc });

/** Every detail-snapshot column, in the order of the spec's table (the response key order). */
export const SNAPSHOT_COLUMNS: readonly SnapshotColumn[] = [
  col('symbol', 'identifier', 'string', 'identifier', 'Symbol code, canonical case.'),
  col(
    'date',
    'identifier',
    'string',
    'identifier',
    "The snapshot's day: the latest K-line day on record, YYYY-MM-DD (null for a symbol without K-lines).",
  ),
  col('name', 'identifier', 'string', 'symbols', 'Name (symbols.csv).'),
  col('market_name', 'identifier', 'string', 'symbols', 'Market name (symbols.csv).'),
  col('market_type', 'identifier', 'string', 'symbols', 'Market type (symbols.csv).'),
  col('open', 'quote', 'number', 'kline', 'Opening price of the day, local currency, unadjusted.'),
  col('high', 'quote', 'number', 'kline', 'Highest price of the day, local currency, unadjusted.'),
  col('low', 'quote', 'number', 'kline', 'Lowest price of the day, local currency, unadjusted.'),
  col('close', 'quote', 'number', 'kline', 'Closing price of the day, local currency, unadjusted.'),
  col(
    'pre_close',
    'quote',
    'number',
    'derived',
    "Previous close, in the basis of the day's adjustment factor, local currency.",
  ),
  col('avg_price', 'quote', 'number', 'fundamental', 'Average traded price of the day, local currency.'),
  col('volume', 'quote', 'number', 'kline', 'Traded volume of the day, in lots.'),
  col('amount', 'quote', 'number', 'kline', 'Traded amount of the day, local currency.'),
  col('change', 'quote', 'number', 'derived', 'close − pre_close, local currency.'),
  col('change_percent', 'quote', 'number', 'derived', 'Price change, percent (1.5 = 1.5 %).'),
  col('inner_volume', 'quote', 'number', 'fundamental', 'Sell-initiated volume, in lots (ashare only).', ['ashare']),
  col('outer_volume', 'quote', 'number', 'fundamental', 'Buy-initiated volume, in lots (ashare only).', ['ashare']),
  col('turnover_rate', 'activity', 'number', 'fundamental', 'Turnover rate, percent.'),
  col('volume_ratio', 'activity', 'number', 'derived', 'Volume over the mean volume of the 5 days before (a ratio).'),
  col('range_pct', 'activity', 'number', 'derived', 'Amplitude (high − low) / pre_close, percent.'),
  col('pe_ratio', 'valuation', 'number', 'fundamental', 'Price/earnings, trailing twelve months (a ratio).'),
  col('pe_fwd', 'valuation', 'number', 'fundamental', 'Forecast price/earnings (a ratio).'),
  col('pe_lyr', 'valuation', 'number', 'fundamental', 'Static price/earnings of the previous year (a ratio).'),
  col('pb_ratio', 'valuation', 'number', 'fundamental', 'Price/book (a ratio).'),
  col('dividend_ratio_ttm', 'valuation', 'number', 'fundamental', 'Dividend yield, trailing twelve months, percent.'),
  col(
    'dividend_ttm',
    'valuation',
    'number',
    'fundamental',
    'Dividend per share, trailing twelve months, local currency.',
  ),
  col('wb_ratio', 'valuation', 'number', 'fundamental', 'Stock-Connect holding share, percent (hkstock only).', [
    'hkstock',
  ]),
  col(
    'eps_ttm',
    'valuation',
    'number',
    'fundamental',
    'Earnings per share, trailing twelve months, local currency (usstock only).',
    ['usstock'],
  ),
  col(
    'total_market_cap',
    'size',
    'number',
    'fundamental',
    'Total market capitalisation, in 100 million of local currency.',
  ),
  col(
    'circulating_market_cap',
    'size',
    'number',
    'fundamental',
    'Circulating market capitalisation, in 100 million of local currency.',
  ),
  col('total_shares', 'size', 'number', 'fundamental', 'Total shares, in shares.'),
  col('float_shares', 'size', 'number', 'fundamental', 'Floating shares, in shares.'),
  col(
    'high_52week',
    'position',
    'number',
    'derived',
    'Highest forward-adjusted high of the last 365 days, local currency.',
  ),
  col(
    'low_52week',
    'position',
    'number',
    'derived',
    'Lowest forward-adjusted low of the last 365 days, local currency.',
  ),
  col('chg_5d', 'momentum', 'number', 'derived', 'Gain over 5 trading days, percent.'),
  col('chg_10d', 'momentum', 'number', 'derived', 'Gain over 10 trading days, percent.'),
  col('chg_20d', 'momentum', 'number', 'derived', 'Gain over 20 trading days, percent.'),
  col('chg_60d', 'momentum', 'number', 'derived', 'Gain over 60 trading days, percent.'),
  col('chg_ytd', 'momentum', 'number', 'derived', 'Gain since the last close of the previous calendar year, percent.'),
  col('ma5', 'derived', 'number', 'derived', 'Mean of the last 5 forward-adjusted closes, local currency.'),
  col('ma10', 'derived', 'number', 'derived', 'Mean of the last 10 forward-adjusted closes, local currency.'),
  col('ma20', 'derived', 'number', 'derived', 'Mean of the last 20 forward-adjusted closes, local currency.'),
  col('ma60', 'derived', 'number', 'derived', 'Mean of the last 60 forward-adjusted closes, local currency.'),
  col('close_vs_ma20', 'derived', 'number', 'derived', 'Deviation of close from ma20, percent.'),
  col('close_vs_52w_high', 'derived', 'number', 'derived', 'Deviation of close from high_52week, percent.'),
];

/** Names of the numeric snapshot columns (open … close_vs_52w_high): the screen whitelist. */
export const NUMERIC_SNAPSHOT_COLUMNS: readonly string[] = SNAPSHOT_COLUMNS.filter((c) => c.kind === 'number').map(
  (c) => c.name,
);

/** Numeric columns a snapshot folder's fundamentals.csv may supply. */
export const FUNDAMENTAL_COLUMNS: readonly string[] = SNAPSHOT_COLUMNS.filter((c) => c.source === 'fundamental').map(
  (c) => c.name,
);

/** Macro indicators in listing order (rows are ordered gdp, cpi_ppi, pmi), with each one's known series keys; a snapshot may carry more. */
export const MACRO_INDICATORS = ['gdp', 'cpi_ppi', 'pmi'] as const;
export type MacroIndicator = (typeof MACRO_INDICATORS)[number];
export const MACRO_KEYS: Readonly<Record<MacroIndicator, readonly string[]>> = {
  gdp: ['GDP_GDP', 'GDP_GDP_YOY', 'GDP_PRIMARY_YOY', 'GDP_SECONDARY_YOY', 'GDP_TERTIARY_YOY'],
  cpi_ppi: ['CPI_CPI_YOY', 'CPI_CPI_MOM', 'PPI_PPI_YOY', 'CPI_CORE_YOY'],
  pmi: ['PMI_MANUFACTURING', 'PMI_NON_MANUFACTURING'],
};

/** Units of the series keys the API notes give one (GDP in 100 million CNY, its growth rates in %); every other key (CPI, PPI, PMI, any a snapshot adds) has none (null). */
export const MACRO_UNITS: Readonly<Record<string, string>> = {
  GDP_GDP: '100 million CNY',
  GDP_GDP_YOY: '%',
  GDP_PRIMARY_YOY: '%',
  GDP_SECONDARY_YOY: '%',
  GDP_TERTIARY_YOY: '%',
};
