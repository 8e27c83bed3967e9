// The column catalogues of the spec: K-line fields and detail-snapshot columns.

import type { Market } from './markets.js';

/** K-line price and size fields in response order, with their short codes. */
export const KLINE_FIELDS = ['open', 'high', 'low', 'close', 'volume', 'amount'] as const;
export type KlineField = (typeof KLINE_FIELDS)[number];
export const KLINE_SHORT_CODES: Readonly<Record<string, KlineField>> = {
  o: 'open', h: 'high', l: 'low', c: 'close', v: 'volume', a: 'amount',
};
/** Fields whose values an adjustment (qfq/hfq) rescales; volume and amount never are. */
export const PRICE_FIELDS: ReadonlySet<KlineField> = new Set(['open', 'high', 'low', 'close']);

/** Where a snapshot column's value comes from (decisions §6). */
export type ColumnSource = 'identifier' | 'kline' | 'derived' | 'fundamental' | 'symbols';

export interface SnapshotColumn {
  readonly name: string;
  readonly category: string;
  readonly kind: 'string' | 'number';
  readonly source: ColumnSource;
  /** Markets the column applies to; elsewhere it is always null. Absent: every market. */
  readonly only?: readonly Market[];
}

const col = (name: string, category: string, kind: 'string' | 'number', source: ColumnSource, only?: Market[]): SnapshotColumn =>
  only ? { name, category, kind, source, only } : { name, category, kind, source };

/** Every detail-snapshot column, in the order of the spec's table (the response key order). */
export const SNAPSHOT_COLUMNS: readonly SnapshotColumn[] = [
  col('symbol', 'identifier', 'string', 'identifier'),
  col('date', 'identifier', 'string', 'identifier'),
  col('name', 'identifier', 'string', 'symbols'),
  col('market_name', 'identifier', 'string', 'symbols'),
  col('market_type', 'identifier', 'string', 'symbols'),
  col('open', 'quote', 'number', 'kline'),
  col('high', 'quote', 'number', 'kline'),
  col('low', 'quote', 'number', 'kline'),
  col('close', 'quote', 'number', 'kline'),
  col('pre_close', 'quote', 'number', 'derived'),
  col('avg_price', 'quote', 'number', 'fundamental'),
  col('volume', 'quote', 'number', 'kline'),
  col('amount', 'quote', 'number', 'kline'),
  col('change', 'quote', 'number', 'derived'),
  col('change_percent', 'quote', 'number', 'derived'),
  col('inner_volume', 'quote', 'number', 'fundamental', ['ashare']),
  col('outer_volume', 'quote', 'number', 'fundamental', ['ashare']),
  col('turnover_rate', 'activity', 'number', 'fundamental'),
  col('volume_ratio', 'activity', 'number', 'derived'),
  col('range_pct', 'activity', 'number', 'derived'),
  col('pe_ratio', 'valuation', 'number', 'fundamental'),
  col('pe_fwd', 'valuation', 'number', 'fundamental'),
  col('pe_lyr', 'valuation', 'number', 'fundamental'),
  col('pb_ratio', 'valuation', 'number', 'fundamental'),
  col('dividend_ratio_ttm', 'valuation', 'number', 'fundamental'),
  col('dividend_ttm', 'valuation', 'number', 'fundamental'),
  col('wb_ratio', 'valuation', 'number', 'fundamental', ['hkstock']),
  col('eps_ttm', 'valuation', 'number', 'fundamental', ['usstock']),
  col('total_market_cap', 'size', 'number', 'fundamental'),
  col('circulating_market_cap', 'size', 'number', 'fundamental'),
  col('total_shares', 'size', 'number', 'fundamental'),
  col('float_shares', 'size', 'number', 'fundamental'),
  col('high_52week', 'position', 'number', 'derived'),
  col('low_52week', 'position', 'number', 'derived'),
  col('chg_5d', 'momentum', 'number', 'derived'),
  col('chg_10d', 'momentum', 'number', 'derived'),
  col('chg_20d', 'momentum', 'number', 'derived'),
  col('chg_60d', 'momentum', 'number', 'derived'),
  col('chg_ytd', 'momentum', 'number', 'derived'),
  col('ma5', 'derived', 'number', 'derived'),
  col('ma10', 'derived', 'number', 'derived'),
  col('ma20', 'derived', 'number', 'derived'),
  col('ma60', 'derived', 'number', 'derived'),
  col('close_vs_ma20', 'derived', 'number', 'derived'),
  col('close_vs_52w_high', 'derived', 'number', 'derived'),
];

/** Names of the numeric snapshot columns (open … close_vs_52w_high): the screen whitelist. */
export const NUMERIC_SNAPSHOT_COLUMNS: readonly string[] = SNAPSHOT_COLUMNS.filter((c) => c.kind === 'number').map((c) => c.name);

/** Numeric columns a snapshot folder's fundamentals.csv may supply. */
export const FUNDAMENTAL_COLUMNS: readonly string[] = SNAPSHOT_COLUMNS.filter((c) => c.source === 'fundamental').map((c) => c.name);

/** Macro indicators in listing order, with the series keys decisions §4 names. */
export const MACRO_INDICATORS = ['gdp', 'cpi_ppi', 'pmi'] as const;
export type MacroIndicator = (typeof MACRO_INDICATORS)[number];
export const MACRO_KEYS: Readonly<Record<MacroIndicator, readonly string[]>> = {
  gdp: ['GDP_GDP', 'GDP_GDP_YOY', 'GDP_PRIMARY_YOY', 'GDP_SECONDARY_YOY', 'GDP_TERTIARY_YOY'],
  cpi_ppi: ['CPI_CPI_YOY', 'CPI_CPI_MOM', 'PPI_PPI_YOY', 'CPI_CORE_YOY'],
  pmi: ['PMI_MANUFACTURING', 'PMI_NON_MANUFACTURING'],
};
