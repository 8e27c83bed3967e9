// Corporate actions of one symbol: cash dividends and splits, as a day-sorted schedule.

import { civilFromDays, daysFromCivil } from '../../engine/calendar/days.js';
import type { MarketProfile } from './plan.js';
import type { Rng } from './prng.js';

/** Kinds of scheduled action; a dividend's value is a fraction of the price, a split's its ratio. */
export const DIVIDEND = 0;
export const SPLIT = 1;

/** Actions as parallel arrays sorted by day: the day they go ex (or the first trading day after). */
export interface ActionSchedule {
  readonly day: Float64Array;
  readonly kind: Uint8Array;
  readonly value: Float64Array;
}

/** Draws a symbol's dividends and splits between its first and last trading day. */
export function scheduleActions(profile: MarketProfile, rng: Rng, firstDay: number, lastDay: number): ActionSchedule {
  const out: [number, number, number][] = [];
  if (profile.payMonths.length > 0 && rng.chance(profile.dividends)) {
    const annualYield = rng.range(0.005, 0.05);
    const [y0] = civilFromDays(firstDay);
    const [y1] = civilFromDays(lastDay);
    for (let y = y0; y <= y1; y++) {
      for (const m of profile.payMonths) {
        const day = daysFromCivil(y, m, rng.int(1, 28));
        const value = (annualYield / profile.payMonths.length) * rng.range(0.8, 1.2);
        if (day > firstDay && day <= lastDay && !rng.chance(0.1)) out.push([day, DIVIDEND, value]); // some years skip
      }
    }
  }
  if (profile.splitRatios.length > 0 && lastDay - firstDay > 30 && rng.chance(profile.splits)) {
    out.push([rng.int(firstDay + 1, lastDay), SPLIT, rng.pick(profile.splitRatios)]);
  }
  out.sort((a, b) => a[0] - b[0]);
  return {
    day: Float64Array.from(out, (a) => a[0]),
    kind: Uint8Array.from(out, (a) => a[1]),
    value: Float64Array.from(out, (a) => a[2]),
  };
}
