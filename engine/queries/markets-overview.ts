// GET /markets: per market its symbol count, K-line rows and date range.

import { type Dataset, marketsInOrder } from '../dataset/dataset.js';
import type { Market } from '../markets.js';

export interface MarketOverview {
  market: Market;
  symbols: number;
  rows: number;
  /** Days since epoch, null for a market without rows. */
  startDate: number | null;
  endDate: number | null;
}

export function marketsOverview(dataset: Dataset): MarketOverview[] {
  return marketsInOrder(dataset).map((m) => ({
    market: m.market,
    symbols: m.symbols.size,
    rows: m.klines.date.length,
    startDate: m.firstDate,
    endDate: m.lastDate,
  }));
}
