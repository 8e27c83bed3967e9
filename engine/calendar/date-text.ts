// `YYYY-MM-DD` text of day numbers, cached: responses format the same few thousand days again and again.

import { formatDate } from './days.js';

const FIRST = -25567; // 1900-01-01
const COUNT = 73415; // through 2100-12-31
const cache: (string | undefined)[] = new Array(COUNT);

/** The ISO text of a day number (cached for 1900–2100). */
export function dateText(days: number): string {
  const slot = days - FIRST;
  if (slot < 0 || slot >= COUNT) return formatDate(days);
  return (cache[slot] ??= formatDate(days));
}
