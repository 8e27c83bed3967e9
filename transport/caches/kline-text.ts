// K-line rows as JSON bytes, rendered once (per chunk of rows, period series, a day's row of a batch)
// and kept: the rows never change. It reads the K-line query's result: which rows, which bars, which
// adjustment base; it never works a window out itself.

import {
  type AdjustMode,
  type KlineResult,
  type Period,
  type SymbolWindow,
  sliceOf,
} from '../../engine/queries/klines.js';
import { type Market, MARKET_INDEX } from '../../engine/markets.js';
import type { BodyPart } from '../serialise/assemble.js';
import { ByteWriter } from '../serialise/byte-writer.js';
import { fieldMask, RowWriter, writeSlice } from '../serialise/kline-json.js';

/**
 * Rows per cached chunk. Chunks are counted back from a symbol's latest row, because most
 * windows end there: the latest 100 rows are one chunk.
 */
const CHUNK = 256;
/** At most this many rows of a chunk not kept yet are rendered for the answer alone (a day or a few of a symbol). */
export const FEW_ROWS = 4;

/** What the cache keeps: chunks of rows, period series and days' batch rows. */
interface Kept {
  /** Read since the eviction hand last passed (second-chance LRU: no Map reshuffle per hit). */
  used: boolean;
  /** Bytes it counts against the budget. */
  cost: number;
}

/** Rows (or bars) rendered as `,{row},{row}…`: every row with a leading comma, as UTF-8 (all ASCII). */
interface Chunk extends Kept {
  bytes: Buffer;
  /** starts[k] = offset of row k's comma; starts[n] = bytes.length. */
  starts: Int32Array;
}

/**
 * One day's row of each symbol a batch has asked for on that day, as `"code":[{row}]` text
 * (one field set and adjustment): batches of that day repeat symbols, so each row is written
 * once, and a batch of 50 symbols costs 50 reads and a join rather than 50 rows written.
 */
interface DaySegments extends Kept {
  /** By symbol position; undefined until asked (symbols without a row that day are never kept). */
  segments: (string | undefined)[];
}

/**
 * Resident bytes a kept chunk holds beside its row bytes and offsets: the chunk object and its
 * Map slot, and two typed arrays with their ArrayBuffers and native backing stores (~1,000
 * bytes each with V8's heap room, as measured for the response cache's Buffers).
 */
const CHUNK_OVERHEAD_BYTES = 2500;
/** What chunk `c` counts against the budget. */
const costOf = (c: Pick<Chunk, 'bytes' | 'starts'>): number =>
  c.bytes.length + c.starts.byteLength + CHUNK_OVERHEAD_BYTES;
/** A kept string's bytes beyond its text: V8's header, rounded up to its 8-byte heap slots. */
const STRING_OVERHEAD_BYTES = 24;

const ADJ_INDEX: Record<AdjustMode, number> = { bfq: 0, qfq: 1, hfq: 2 };
/** Chunk numbers from here on name period series (a symbol never has 60,000 chunks of 256 rows). */
const SERIES_SLOT = 60_000;
const PERIOD_INDEX: Record<Exclude<Period, 'day'>, number> = { week: 0, month: 1, quarter: 2, year: 3 };

/** A number naming (market, symbol, chunk, adjustment, field set): cheaper than a string key per lookup. */
const chunkKey = (market: Market, i: number, c: number, adj: AdjustMode, mask: number): number =>
  (((MARKET_INDEX[market] * 1048576 + i) * 65536 + c) * 4 + ADJ_INDEX[adj]) * 64 + mask;
/** A negative number naming (market, day, adjustment, field set): a day's segments (days within ±179 years of 1970). */
const dayKey = (market: Market, day: number, adj: AdjustMode, mask: number): number =>
  -(((MARKET_INDEX[market] * 131072 + day + 65536) * 4 + ADJ_INDEX[adj]) * 64 + mask + 1);

/**
 * An LRU of rendered rows for one Dataset: chunks and period series keyed by market, symbol,
 * chunk (or series), adjustment and field set, days' batch rows by market, day, adjustment and
 * field set (negative keys), bounded by the bytes it holds. A Dataset is immutable, so nothing
 * kept goes stale; a reload brings a new Dataset and with it a new cache.
 */
export class KlineTextCache {
  private readonly chunks = new Map<number, Kept>();
  private size = 0;
  private readonly writer = new ByteWriter(CHUNK * 200);

  constructor(private readonly budgetBytes: number) {}

  /** Bytes counted against the budget. */
  get bytes(): number {
    return this.size;
  }

  /**
   * JSON of window `w` of `r` (its rows, or its bars), comma-separated, as byte views: `pieces`
   * receives one view per chunk touched (usually one). The views share the cache's memory and
   * stay valid as long as the caller holds them (eviction only drops the cache's reference).
   */
  rows(r: KlineResult, w: SymbolWindow, pieces: BodyPart[]): void {
    if (w.to <= w.from) return;
    const { m } = r;
    const { adj, fields } = r.ask;
    const mask = fieldMask(fields);
    if (w.bars !== null) {
      const series = this.series(r, w, mask);
      pieces.push(series.bytes.subarray(series.starts[w.from] + 1, series.starts[w.to]));
      return;
    }
    const { i, from, to } = w;
    const end = m.klines.offsets[i + 1]; // chunk c holds rows [end − (c+1)·CHUNK, end − c·CHUNK)
    if (adj === 'qfq' && w.base !== end - 1) {
      // qfq to a chosen day (qfq_base): rendered for this answer, not kept (the base multiplies the keys).
      this.renderAlone(r, w, pieces);
      return;
    }
    const firstChunk = Math.floor((end - from - 1) / CHUNK);
    if (to - from <= FEW_ROWS && firstChunk === Math.floor((end - to) / CHUNK)) {
      // A few rows of one chunk (one day of a batch, a cross-section): rendered alone, unless
      // their chunk is kept already. Rendering 256 rows to answer one costs 100× and evicts others.
      if (!this.chunks.has(chunkKey(m.market, i, firstChunk, adj, mask))) {
        this.renderAlone(r, w, pieces);
        return;
      }
    }
    let first = true;
    for (let c = firstChunk; c >= 0 && end - (c + 1) * CHUNK < to; c--) {
      const chunk = this.kept(chunkKey(m.market, i, c, adj, mask), () => this.renderChunk(r, i, c));
      const base = end - c * CHUNK - (chunk.starts.length - 1); // the chunk's first row
      const a = Math.max(from, base) - base;
      const b = Math.min(to, end - c * CHUNK) - base;
      pieces.push(chunk.bytes.subarray(chunk.starts[a] + (first ? 1 : 0), chunk.starts[b])); // no comma before the first row
      first = false;
    }
  }

  /**
   * `"code":[…]` of each window of `r` (each the day's row or none, all of day `r.day`) joined by
   * commas, appended to `pieces` as one string: a symbol's row text is written on the day's first
   * ask of it and kept with the day's others.
   */
  daySegments(r: KlineResult, pieces: BodyPart[]): void {
    const { m, windows } = r;
    const { adj, fields } = r.ask;
    const n = m.symbols.size;
    const key = dayKey(m.market, r.day!, adj, fieldMask(fields));
    let kept: DaySegments | null = null; // none for a batch without a row (a holiday): nothing to keep
    const texts: string[] = new Array(windows.length);
    let writer: RowWriter | null = null;
    let grown = 0;
    for (let k = 0; k < windows.length; k++) {
      const { i, from, to, base } = windows[k];
      if (to === from) {
        texts[k] = `"${m.symbols.codes[i]}":[]`;
        continue;
      }
      kept ??= this.kept(
        key,
        (): DaySegments => ({
          segments: new Array(n).fill(undefined),
          used: false,
          cost: n * 8 + CHUNK_OVERHEAD_BYTES,
        }),
      );
      let segment = kept.segments[i];
      if (segment === undefined) {
        const w = this.writer;
        w.ascii(`"${m.symbols.codes[i]}":[`); // codes are [A-Za-z0-9._-]: nothing to escape
        (writer ??= new RowWriter(m, adj, fields)).write(w, i, from, base);
        w.ascii(']');
        const written = w.takeText(); // emptied: the chunks write with it too, from its start
        kept.segments[i] = segment = written;
        grown += written.length + STRING_OVERHEAD_BYTES;
      }
      texts[k] = segment;
    }
    pieces.push(texts.join(',')); // one flat string: no tree of concatenations to flatten when written
    if (kept !== null && grown > 0) this.grew(kept, grown);
  }

  /** Every bar of window `w`'s series (its bars, all its history, the fields of `mask`), rendered once and kept like a chunk. */
  private series(r: KlineResult, w: SymbolWindow, mask: number): Chunk {
    const { m, ask } = r;
    const key = chunkKey(
      m.market,
      w.i,
      SERIES_SLOT + PERIOD_INDEX[ask.period as Exclude<Period, 'day'>],
      ask.adj,
      mask,
    );
    return this.kept(key, () => this.renderOwn(r, { ...w, from: 0, to: w.bars!.count }));
  }

  /** Chunk `c` of symbol `i`: its rows as the answer's fields and adjustment give them, qfq to the latest day. */
  private renderChunk(r: KlineResult, i: number, c: number): Chunk {
    const { offsets } = r.m.klines;
    const last = offsets[i + 1] - 1;
    const to = last + 1 - c * CHUNK;
    return this.renderOwn(r, { i, from: Math.max(offsets[i], to - CHUNK), to, total: 0, base: last, bars: null });
  }

  /** Window `w` of `r` (rows of a chunk, a whole series) rendered into memory of its own, to keep. */
  private renderOwn(r: KlineResult, w: SymbolWindow): Chunk {
    this.writer.pos = 0;
    const starts = writeSlice(this.writer, r.m.symbols.codes[w.i], r.ask.fields, sliceOf(r, w));
    const bytes = this.writer.takeOwn();
    return { bytes, starts, used: false, cost: costOf({ bytes, starts }) };
  }

  /** Window `w` of `r` rendered for this answer alone (not kept): a view of the writer's bytes. */
  private renderAlone(r: KlineResult, w: SymbolWindow, pieces: BodyPart[]): void {
    this.writer.pos = 0;
    writeSlice(this.writer, r.m.symbols.codes[w.i], r.ask.fields, sliceOf(r, w));
    pieces.push(this.writer.take().subarray(1));
  }

  /** The entry kept under `key`, or `make`'s, kept from now on (the oldest unread ones leave to stay in budget). */
  private kept<T extends Kept>(key: number, make: () => T): T {
    const hit = this.chunks.get(key);
    if (hit !== undefined) {
      hit.used = true;
      return hit as T;
    }
    const made = make();
    this.chunks.set(key, made);
    this.size += made.cost;
    this.evictFor(made);
    return made;
  }

  /** Counts `bytes` more for `entry` (a day's segments, grown), making room if the budget is passed. */
  private grew(entry: Kept, bytes: number): void {
    entry.cost += bytes;
    this.size += bytes;
    this.evictFor(entry);
  }

  /** Evicts from the oldest end until within budget, sparing `kept`; an entry read since it was last passed gets a second chance. */
  private evictFor(kept: Kept): void {
    // Passed over, not stopped at: the entries read since the hand last passed go behind it, and
    // a day's entry read for weeks drifts to the oldest end; either way those after it must go.
    for (const [oldKey, old] of this.chunks) {
      if (this.size <= this.budgetBytes) break;
      if (old === kept) continue;
      this.chunks.delete(oldKey);
      if (old.used) {
        old.used = false;
        this.chunks.set(oldKey, old);
      } else {
        this.size -= old.cost;
      }
    }
  }
}
