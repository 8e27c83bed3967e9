// The bench's shared request inputs: the screen and the symbol search, for micro and HTTP cases alike.

import type { ScreenQuery } from '../../engine/queries/screen.js';

/** Three bounded columns (about a quarter of ashare's demo rows pass), sorted by change_percent, first page of 50. */
export const SCREEN_QUERY: ScreenQuery = {
  bounds: new Map([
    ['pe_ratio', { min: 0, max: 30 }],
    ['total_market_cap', { min: 50, max: Infinity }],
    ['pb_ratio', { min: -Infinity, max: 5 }],
  ]),
  sort: 'change_percent',
  descending: true,
  offset: 0,
  limit: 50,
};

/** The same screen as GET parameters (`min_…`/`max_…`, sort, order, limit). */
export function screenQueryString(q: ScreenQuery = SCREEN_QUERY): string {
  const parts: string[] = [];
  for (const [column, b] of q.bounds) {
    if (b.min !== -Infinity) parts.push(`min_${column}=${b.min}`);
    if (b.max !== Infinity) parts.push(`max_${column}=${b.max}`);
  }
  parts.push(`sort=${q.sort}`, `order=${q.descending ? 'desc' : 'asc'}`, `limit=${q.limit}`);
  if (q.offset > 0) parts.push(`offset=${q.offset}`);
  return parts.join('&');
}

/** The symbol search of the bench: a name substring ("bank"), so every code and name is compared. */
export const SEARCH_TEXT = '银行';
