// Each symbol's period bars (weeks to years, over its whole history), built once and kept within a
// byte budget: a Dataset never changes, and a symbol's monthly bars are asked again and again.

import type { MarketData } from '../dataset/dataset.js';
import type { AdjustMode } from '../kernels/adjust.js';
import type { Bars, Period } from '../kernels/periods.js';
import { MARKET_INDEX } from '../markets.js';

const PERIOD_INDEX: Record<Exclude<Period, 'day'>, number> = { week: 0, month: 1, quarter: 2, year: 3 };
const ADJ_INDEX: Record<AdjustMode, number> = { bfq: 0, qfq: 1, hfq: 2 };

/** Resident bytes a kept set of bars holds beside its columns: the object, its Map slot, eight typed arrays and their buffers. */
const BARS_OVERHEAD_BYTES = 1500;
/** Bytes per bar: a date (4) and seven Float64 columns. */
const BAR_BYTES = 4 + 7 * 8;

interface Kept {
  bars: Bars;
  cost: number;
  /** Read since the eviction hand last passed (second chance: no Map reshuffle per hit). */
  used: boolean;
}

/**
 * Period bars of one Dataset by (market, symbol, period, adjustment), qfq to each symbol's latest
 * factor (a period answer takes no `qfq_base`), least recently read out first past `budgetBytes`.
 */
export class BarsCache {
  private readonly kept = new Map<number, Kept>();
  private size = 0;

  constructor(private readonly budgetBytes: number) {}

  /** Bytes counted against the budget. */
  get bytes(): number {
    return this.size;
  }

  /** The `period` bars of symbol `i` of `m`, adjusted by `adj`: kept, or made now by `make` (klines.ts) and kept. Never written to. */
  of(m: MarketData, i: number, period: Exclude<Period, 'day'>, adj: AdjustMode, make: () => Bars): Bars {
    const key = ((MARKET_INDEX[m.market] * 1048576 + i) * 4 + PERIOD_INDEX[period]) * 4 + ADJ_INDEX[adj];
    const hit = this.kept.get(key);
    if (hit !== undefined) return ((hit.used = true), hit.bars);
    const bars = make();
    const cost = bars.count * BAR_BYTES + BARS_OVERHEAD_BYTES;
    if (cost > this.budgetBytes) return bars; // served, not kept
    this.kept.set(key, { bars, cost, used: false });
    this.size += cost;
    for (const [oldKey, old] of this.kept) {
      if (this.size <= this.budgetBytes) break;
      this.kept.delete(oldKey);
      if (old.used) (old.used = false), this.kept.set(oldKey, old);
      else this.size -= old.cost;
    }
    return bars;
  }
}
