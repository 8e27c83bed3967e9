// The six markets of the spec, in the order every listing uses.

export const MARKETS = ['ashare', 'hkstock', 'usstock', 'crypto', 'indices', 'etfs'] as const;

export type Market = (typeof MARKETS)[number];

const MARKET_SET: ReadonlySet<string> = new Set(MARKETS);

/** True when `value` is one of the six market path values. */
export function isMarket(value: string): value is Market {
  return MARKET_SET.has(value);
}

/** Each market's place in MARKETS: a small number for keys that name a market. */
export const MARKET_INDEX: Readonly<Record<Market, number>> = Object.fromEntries(
  MARKETS.map((m, i) => [m, i]),
) as Record<Market, number>;
