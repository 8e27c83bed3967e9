// A serving thread's standing screens, run by the main thread on its kernel pool: each distinct
// screen once per edition over every thread, the thread's Dataset named by its origin.

import type { Dataset } from '../../engine/dataset/dataset.js';
import type { Market } from '../../engine/markets.js';
import type { ScreenQuery, ScreenResult } from '../../engine/queries/screen.js';
import { INLINE_SCREENS, type ScreenRunner, screenQueryMessage } from '../stream/screen-runner.js';
import type { FromThread, ScreenAnswer } from './messages.js';

export class RemoteScreens implements ScreenRunner {
  private asked = 0;
  private readonly waiting = new Map<number, { resolve(r: ScreenResult): void; reject(e: Error): void }>();

  constructor(private readonly post: (m: FromThread) => void) {}

  run(dataset: Dataset, market: Market, q: ScreenQuery): Promise<ScreenResult> {
    const origin = dataset.origin;
    if (origin === undefined) return INLINE_SCREENS.run(dataset, market, q); // a Dataset made in memory: nothing to name
    const id = ++this.asked;
    this.post({ type: 'screen', id, origin: { key: origin.key, ref: origin.ref }, market, q: screenQueryMessage(q) });
    return new Promise((resolve, reject) => this.waiting.set(id, { resolve, reject }));
  }

  release(dataset: Dataset, market: Market, q: ScreenQuery): void {
    const origin = dataset.origin;
    if (origin === undefined) return; // run inline: nothing kept
    this.post({
      type: 'screen-release',
      origin: { key: origin.key, ref: origin.ref },
      market,
      q: screenQueryMessage(q),
    });
  }

  /** The main thread's answer to one ask. */
  answered(m: ScreenAnswer): void {
    const waiter = this.waiting.get(m.id);
    if (waiter === undefined) return;
    this.waiting.delete(m.id);
    if (m.error !== undefined) waiter.reject(new Error(`screen on the main thread's pool: ${m.error}`));
    else waiter.resolve({ total: m.total!, rows: m.rows! });
  }
}
