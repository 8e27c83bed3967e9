// When a serving thread asks V8 for a full collection: the one policy for memory V8 does not see
// let go (as-of tables dropped from their cache, a replaced Dataset released) and for the garbage
// of the last requests once they stop.

import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's full collection, run as V8's asynchronous (incremental, concurrent) major GC: a
 * synchronous one paused requests for tens of ms. Without `--expose-gc` at start.
 */
export function fullGc(): () => void {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as (options: { type: 'major'; execution: 'async' }) => Promise<void>;
  return () => void gc({ type: 'major', execution: 'async' });
}

/**
 * Shared bytes of dropped as-of views (an ashare table's rows are ~1 MB) after which the thread
 * asks V8 for a (concurrent, incremental) major collection. Those SharedArrayBuffers prompt none,
 * and freed late they piled up and left the allocator's heaps fragmented. Measured with the memory
 * bench's snapshot routes only (detail, batch, screen; 30 % as_of; 30,000 requests; THREADS=2,
 * AS_OF_CACHE_MB=32): RSS peaked at +435 MB over start without it, +174 MB collecting after every
 * 16 MB (6 % more server CPU per request), +126 MB after every 4 MB (26 % more).
 */
export const COLLECT_AFTER_DROPPED_BYTES = 16 * 1024 * 1024;

/** A quiet spell this long (no API request) after IDLE_COLLECT_REQUESTS answered asks V8 for a collection. */
export const IDLE_COLLECT_MS = 2000;
export const IDLE_COLLECT_REQUESTS = 1000;

/** One thread's collection policy; `collect` starts one (V8's asynchronous full GC by default). */
export class Collector {
  private droppedBytes = 0;
  private servedSinceCollect = 0;
  private lastServed = 0;
  private quiet: NodeJS.Timeout | null = null;
  private collector: (() => void) | null;

  constructor(collect: (() => void) | null = null) {
    this.collector = collect;
  }

  /** A collection now (made on first use: the flag is set only by a thread that collects). */
  private collect(): void {
    (this.collector ??= fullGc())();
  }

  /** As-of views let go (evicted, served without being kept, or cleared for another Dataset): their shared bytes. */
  droppedShared(bytes: number): void {
    this.droppedBytes += bytes;
    if (this.droppedBytes < COLLECT_AFTER_DROPPED_BYTES) return;
    this.droppedBytes = 0;
    this.collect();
  }

  /**
   * No request of this thread reads a replaced Dataset any longer (its maps are closed): its other
   * memory goes back in one pause. Its columns' buffers are memory V8 does not count as the
   * thread's, so nothing else prompts the collection that frees them.
   */
  released(): void {
    this.collect();
  }

  /** An API request arrived at `now` (performance.now()): the idle collection waits for a quiet spell. */
  served(now: number): void {
    this.servedSinceCollect++;
    this.lastServed = now;
  }

  /**
   * A collection once requests stop: the garbage of the last requests (bodies, compressed copies,
   * dropped as-of tables) and the room V8's heap grew to otherwise stay however long the server
   * then idles, since only allocation prompts V8 to collect. Asked once per quiet spell, after
   * enough requests that it is worth a major GC (tens of ms, mostly off the serving thread).
   */
  startIdleCollect(): void {
    if (this.quiet !== null) return;
    this.quiet = setInterval(() => {
      if (this.servedSinceCollect >= IDLE_COLLECT_REQUESTS && performance.now() - this.lastServed >= IDLE_COLLECT_MS)
        (this.servedSinceCollect = 0), this.collect();
    }, IDLE_COLLECT_MS);
    this.quiet.unref();
  }
}
