// One serving thread's stream figures in shared memory: written by that thread, read by the thread
// that answers /metrics (as request-metrics.ts keeps request counts), so a scrape waits on no thread.

/** The figures, by their slot in the array. */
const SLOT = {
  connections: 0,
  editions: 1,
  bars: 2,
  screen: 3,
  messages: 4,
  bytes: 5,
  backpressure: 6,
} as const;
const SLOTS = 7;

/** What /metrics tells of the streams: sums over every serving thread. */
export interface StreamTotals {
  /** Open WebSocket connections (authenticated or not yet). */
  connections: number;
  /** Subscriptions held now by channel, as the plans' limits count them (a `bars` symbol 1, `*` 100). */
  subscriptions: { editions: number; bars: number; screen: number };
  /** Messages and their bytes handed to sockets since start (a published message counts once per socket it reached). */
  messages: number;
  bytes: number;
  /** Sockets closed with 1013 for holding too much unsent. */
  backpressureCloses: number;
}

export class StreamFigures {
  readonly storage: Float64Array;

  /** This thread's figures (new shared memory), or another thread's posted `storage`. */
  constructor(storage?: Float64Array) {
    this.storage = storage ?? new Float64Array(new SharedArrayBuffer(SLOTS * Float64Array.BYTES_PER_ELEMENT));
  }

  connected(delta: number): void {
    this.storage[SLOT.connections] += delta;
  }

  subscribed(channel: 'editions' | 'bars' | 'screen', weight: number): void {
    this.storage[SLOT[channel]] += weight;
  }

  sent(messages: number, bytes: number): void {
    this.storage[SLOT.messages] += messages;
    this.storage[SLOT.bytes] += bytes;
  }

  droppedForBackpressure(): void {
    this.storage[SLOT.backpressure]++;
  }

  /** The sum of `all` (this thread's and the others'). */
  static totals(all: readonly Float64Array[]): StreamTotals {
    const sum = (slot: number): number => all.reduce((n, s) => n + s[slot], 0);
    return {
      connections: sum(SLOT.connections),
      subscriptions: { editions: sum(SLOT.editions), bars: sum(SLOT.bars), screen: sum(SLOT.screen) },
      messages: sum(SLOT.messages),
      bytes: sum(SLOT.bytes),
      backpressureCloses: sum(SLOT.backpressure),
    };
  }
}
