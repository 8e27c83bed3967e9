// A streamed answer's body (an export): chunks handed to the socket in turns that every stream
// of the thread shares with each other and with the thread's other requests, the connection's
// reading paused until the body ends (so a request pipelined behind it waits for its turn instead
// of closing the connection), and a reader that stops taking bytes neither cut by uWS's idle
// timeout nor held without end.
//
// Why not uWS's own `onWritable`: it needs the socket polled for reading too, and uWS closes a
// connection whose next request arrives while a response is still being written (uWS #277); and
// its idle timeout (10 s) cuts a reader that pauses with bytes buffered. So while a body is
// under way the socket is paused (no reading, no timeout), and whether it took what it held is
// asked by writing one more byte of the body: uWS's `write` answers true only when everything
// it held went out with it.

import type { HttpResponse } from 'uWebSockets.js';
import type { ChunkSource } from '../route.js';

/** The longest a turn of every stream of a thread runs before the thread's other requests are read. */
const TURN_MS = 2;
/** A socket that held bytes is asked again after this long, then twice as long each time, up to LAST_PROBE_MS (SLOW_PROBE_MS once stalled a minute). */
const FIRST_PROBE_MS = 1;
const LAST_PROBE_MS = 50;
const SLOW_PROBE_MS = 1000;
const SLOW_AFTER_MS = 60_000;
/** A reader that took nothing for this long: the connection is read once (a client that left is then seen). */
export const LIVENESS_MS = 2000;
/** A reader that took nothing for this long is cut, and the rows not sent are given back (EXPORT_STALL_S; the API notes say so). */
export const STALL_LIMIT_MS = 10 * 60_000;
/**
 * Bytes of the body always held back (the tail of the chunk last made, copied) until more of it
 * is made: the one byte a question to the socket costs comes from the body, and at its end only
 * these are left (handed half at a time, a byte kept to ask with). At one question per
 * LAST_PROBE_MS for a minute, then one a second, they last about 4.5 hours (EXPORT_STALL_S is
 * bounded below that).
 */
const HELD_BYTES = 16 * 1024;
const EMPTY = Buffer.alloc(0);

/** How a streamed body ended: sent whole, the client left, or cut by the server (`rowsSent`: in the chunks the socket took whole). */
export type StreamEnd =
  | { kind: 'sent' }
  | { kind: 'gone'; rowsSent: number }
  | {
      kind: 'cut';
      /** stalled: took nothing for the stall limit; failed: making a chunk threw; closing: a drain; read: a check of the connection read a request pipelined behind the body, which uWS answers by closing it. */
      reason: 'stalled' | 'failed' | 'closing' | 'read';
      rowsSent: number;
      error?: unknown;
    };

/**
 * The turns of one thread's streams: each stream that has bytes to give gives one chunk a round,
 * rounds run until TURN_MS is spent, then the event loop reads the thread's sockets before the
 * next turn (`setImmediate`): a stream never holds the thread longer than a turn, and N streams
 * share it evenly.
 */
export class StreamTurns {
  private readonly ready: StreamedBody[] = [];
  private scheduled = false;
  /** Streams under way (ready, or waiting for their socket): cut when the server closes. */
  readonly live = new Set<StreamedBody>();

  constructor(
    /** A stream whose reader took nothing for this long is cut. */
    readonly stallMs = STALL_LIMIT_MS,
  ) {}

  /** `body` has bytes to give: it gets a place in the next round. */
  wake(body: StreamedBody): void {
    this.ready.push(body);
    if (!this.scheduled) (this.scheduled = true), setImmediate(this.turn);
  }

  private readonly turn = (): void => {
    this.scheduled = false;
    const until = performance.now() + TURN_MS;
    const { ready } = this;
    while (ready.length > 0 && performance.now() < until) {
      const body = ready.shift()!;
      if (body.step()) ready.push(body);
    }
    if (ready.length > 0) (this.scheduled = true), setImmediate(this.turn);
  };

  /** Cuts every stream under way (the server is closing: none need wait for a slow reader). */
  cutAll(): void {
    for (const body of [...this.live]) body.cut('closing');
  }
}

/** One streamed body on one response: its headers are written; `start` hands it to the turns. */
export class StreamedBody {
  /** Bytes to hand to uWS, in order: what was held back, then the head of the chunk last made (views: valid until the next `next`). */
  private readonly pending: Buffer[] = [];
  /** The tail of the chunk last made, copied here before the source makes the next (its buffer is reused). */
  private readonly held = Buffer.allocUnsafe(HELD_BYTES);
  /** The chunk last made, whose tail is still to be held (`keep` bytes). */
  private last: Buffer | null = null;
  private keep = 0;
  private sourceEnded = false;
  /** Once the source ended: the body's last bytes, still to hand (a view of `held`). */
  private tail: Buffer = EMPTY;
  /** The socket held bytes at the last write: the next step asks it with one byte. */
  private backed = false;
  private probeMs = FIRST_PROBE_MS;
  private takenAt = performance.now();
  private checkedAt = this.takenAt;
  private timer: NodeJS.Timeout | null = null;
  /** Set by a step for after its cork: read the connection for a turn; cut it. */
  private checking = false;
  /** The connection is read for a turn (a check): a close now may be a pipelined request's. */
  private reading = false;
  private stalled = false;
  private ended = false;
  /** Rows the source had given before the chunk last made, and with it. */
  private rowsBefore = 0;
  private rowsThrough = 0;
  /** Rows whose bytes the socket took. */
  private rowsSent = 0;

  constructor(
    private readonly res: HttpResponse,
    private readonly source: ChunkSource,
    private readonly turns: StreamTurns,
    private readonly onEnd: (end: StreamEnd) => void,
  ) {}

  /** From now on its chunks go out in the thread's turns; reading the connection stops until the body ends. */
  start(): void {
    this.turns.live.add(this);
    this.res.pause();
    this.turns.wake(this);
  }

  /**
   * The connection closed (uWS's onAborted): nothing more is made or written. While the connection
   * is read for a check (`checking`), a request pipelined behind the body may be what closed it:
   * counted as the server's cut (the rows not sent given back), not as the client leaving.
   */
  abandoned(): void {
    if (this.ended) return;
    this.end(
      this.reading
        ? { kind: 'cut', reason: 'read', rowsSent: this.rowsSent }
        : { kind: 'gone', rowsSent: this.rowsSent },
    );
  }

  /** Closes the connection mid-body (a response cannot turn into a problem once it began). */
  cut(reason: 'stalled' | 'failed' | 'closing' | 'read', error?: unknown): void {
    if (this.ended) return;
    this.end({ kind: 'cut', reason, rowsSent: this.rowsSent, error });
    this.res.close();
  }

  /** One chunk (or one question to a socket that held bytes); true while it has more to give at once. */
  step(): boolean {
    if (this.ended) return false;
    let more = false;
    let failure: { error: unknown } | null = null;
    this.res.cork(() => {
      try {
        more = this.write();
      } catch (error) {
        failure = { error }; // making a chunk threw: the owner logs it, the connection closes (below, out of the cork)
      }
    });
    if (failure !== null) this.cut('failed', (failure as { error: unknown }).error);
    else if (this.stalled) this.cut('stalled');
    if (this.ended) return false;
    if (this.checking) {
      // One turn of the loop with the connection read: a client that left is seen (uWS's onAborted).
      this.checking = false;
      this.reading = true;
      this.res.resume();
      setImmediate(() => {
        this.reading = false;
        if (!this.ended) this.res.pause();
      });
    } else {
      // A write the socket did not take whole makes uSockets poll the connection for reading again
      // (at uncork, so after the cork): paused again until the body ends.
      this.res.pause();
    }
    return more;
  }

  private write(): boolean {
    const { res } = this;
    if (this.sourceEnded && this.pending.length === 0) return this.windDown();
    if (this.backed) {
      const probe = this.piece(1);
      if (probe === null) return this.windDown(); // the source ended: its held tail asks
      if (!res.write(probe)) return this.wait(); // still held: the byte waits with the rest
      this.backed = false;
      this.taken();
    }
    // A chunk: what was held back, then the head of the next chunk made.
    if (this.piece(0) === null) return true; // the source ended: its tail goes from the next step, in a cork of its own
    while (this.pending.length > 0)
      if (!res.write(this.take(Number.POSITIVE_INFINITY))) {
        this.backed = true; // uWS keeps what the socket did not take
        return this.wait();
      }
    this.taken();
    return true;
  }

  /**
   * The body's held tail, once the source ended: each step asks first with one byte, in a cork
   * of its own (a write that fits uWS's cork buffer answers true whatever the socket then takes:
   * only a question in a fresh cork says that nothing earlier is still held), then hands half of
   * what is left (a byte always stays to ask with); the last byte goes with the end.
   */
  private windDown(): boolean {
    const { res } = this;
    const tail = this.tail;
    if (tail.length === 0) return this.finish(); // a body of nothing
    this.tail = tail.subarray(1);
    if (!res.write(tail.subarray(0, 1))) return ((this.backed = true), this.wait());
    this.backed = false;
    this.taken();
    if (this.tail.length === 0) return this.finish();
    const half = this.tail.length >> 1;
    if (half > 0) res.write(this.tail.subarray(0, half)), (this.tail = this.tail.subarray(half)); // the next question tells whether it went
    return true;
  }

  /**
   * The first `max` bytes of what is to hand before the tail (`max` 0: none, only whether any
   * are), the next chunk fetched when none are left; null once the source ended.
   */
  private piece(max: number): Buffer | null {
    if (this.pending.length === 0 && !this.fetch()) return null;
    return max === 0 ? EMPTY : this.take(max);
  }

  /**
   * The next bytes into `pending`: what was held back, then the next chunk but its tail (held
   * now). Once the source ended, the held bytes are the body's tail (`tail`), and it is false.
   */
  private fetch(): boolean {
    const { held } = this;
    if (this.sourceEnded) return false;
    if (this.last !== null) {
      // Its head is handed over: its tail is copied before the source makes the next chunk over it.
      this.last.copy(held, 0, this.last.length - this.keep);
      this.last = null;
    }
    const heldBytes = this.keep;
    this.keep = 0;
    const next = this.source.next();
    if (next === null) {
      this.sourceEnded = true;
      this.tail = held.subarray(0, heldBytes);
      return false;
    }
    if (heldBytes > 0) this.pending.push(held.subarray(0, heldBytes));
    this.keep = Math.min(next.length, HELD_BYTES);
    if (next.length > this.keep) this.pending.push(next.subarray(0, next.length - this.keep));
    this.last = next;
    this.rowsBefore = this.rowsThrough;
    this.rowsThrough = this.source.rowsGiven;
    return this.pending.length > 0 || this.fetch(); // a chunk held whole: on to the next
  }

  /** Up to `n` bytes of what is pending, in order. */
  private take(n: number): Buffer {
    const first = this.pending[0];
    if (n >= first.length) return this.pending.shift()!;
    this.pending[0] = first.subarray(n);
    return first.subarray(0, n);
  }

  /** The socket took everything handed so far (the rows of a chunk whose tail is held still count as unsent). */
  private taken(): void {
    this.rowsSent =
      this.pending.length === 0 && this.keep === 0 && this.tail.length === 0 ? this.rowsThrough : this.rowsBefore;
    this.probeMs = FIRST_PROBE_MS;
    this.takenAt = this.checkedAt = performance.now();
  }

  /** The socket holds bytes: ask again later (backing off), read the connection now and then, cut it after the stall limit. */
  private wait(): boolean {
    const now = performance.now();
    if (now - this.takenAt >= this.turns.stallMs) return ((this.stalled = true), false);
    if (now - this.checkedAt >= LIVENESS_MS) (this.checkedAt = now), (this.checking = true);
    this.timer = setTimeout(() => ((this.timer = null), this.turns.wake(this)), this.probeMs);
    this.probeMs = Math.min(this.probeMs * 2, now - this.takenAt < SLOW_AFTER_MS ? LAST_PROBE_MS : SLOW_PROBE_MS);
    return false;
  }

  /** Everything is handed over: the response ends, and the connection is read again (a request pipelined behind it is answered next). */
  private finish(): boolean {
    this.rowsSent = this.rowsThrough;
    this.end({ kind: 'sent' });
    this.res.resume();
    this.res.end();
    return false;
  }

  private end(end: StreamEnd): void {
    this.ended = true;
    if (this.timer !== null) clearTimeout(this.timer), (this.timer = null);
    this.turns.live.delete(this);
    this.onEnd(end);
  }
}
