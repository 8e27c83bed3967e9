// Whole answers per Dataset: a request's body is a pure function of the immutable Dataset,
// the route, the plan and the raw request text, so a repeated request is one Map lookup.

import type { Format } from '../answers/formats/index.js';
import type { Encoding } from '../http/negotiate.js';
import type { HeaderBlock } from '../respond.js';
import { assemble, type BodyPart } from '../serialise/assemble.js';
import { compress, MIN_COMPRESSED_BYTES } from '../serialise/encode.js';
import { Doorkeeper } from './doorkeeper.js';
import { Slabs } from './slabs.js';

/** A rendered answer and what its headers need, before it is (maybe) kept. */
export interface Answer {
  rows: number;
  /** Content-Type of the negotiated format. */
  type: string;
  /** The `Link` header's value, or null. */
  link: string | null;
  body: string | Buffer | BodyPart[];
  format: Format;
  /** What the ETag derives from (data version, request, format), or null: from the body itself. */
  tag: string | null;
}

/** A header block as kept: its value as bytes of the cache's slabs. */
export interface KeptHead extends HeaderBlock {
  value: Buffer;
}

/**
 * A kept answer: its identity body as one Buffer (sent without assembly) and, made on the
 * first request that accepts each, its gzip and br bodies: an answer never changes within
 * a data version, so it is compressed once, not per request.
 *
 * A class, not a spread of the fresh answer: every kept answer has one shape, so the reads of a
 * kept request stay monomorphic (spread copies took the shapes of their answers' fields, and
 * their reads went to V8's runtime: about a microsecond a request).
 */
export class CachedAnswer implements Answer {
  readonly rows: number;
  readonly type: string;
  readonly link: string | null;
  readonly format: Format;
  readonly tag: string | null;
  gzip: Buffer | null = null;
  br: Buffer | null = null;
  /** The ETag of each encoding once sent, by `encodingSlot`. */
  readonly etags: (string | undefined)[] = [undefined, undefined, undefined];
  /** The headers the body fixes per encoding once sent (by `encodingSlot`), as bytes (`ResponseCache.keepHead`). */
  readonly heads: (KeptHead | undefined)[] = [undefined, undefined, undefined];

  constructor(
    answer: Answer,
    readonly key: string,
    readonly body: Buffer,
    /** What the entry holds, in bytes, as counted against the budget (grows with each compressed body and header block). */
    public bytes: number,
  ) {
    this.rows = answer.rows;
    this.type = answer.type;
    this.link = answer.link;
    this.format = answer.format;
    this.tag = answer.tag;
  }
}

/** The encoding a kept answer goes out in when `asked` is accepted: bodies under MIN_COMPRESSED_BYTES go as they are. */
export const encodingOf = (answer: CachedAnswer, asked: Encoding): Encoding =>
  asked === 'identity' || answer.body.length < MIN_COMPRESSED_BYTES ? 'identity' : asked;

/** Position of an encoding in a kept answer's `etags` and `heads`. */
export const encodingSlot = (used: Encoding): 0 | 1 | 2 => (used === 'identity' ? 0 : used === 'gzip' ? 1 : 2);

export interface ResponseCacheOptions {
  /** Bytes the kept answers hold (bodies, compressed bodies, header blocks, strings, overheads, the slabs' dead bytes); past it the oldest entries go first. */
  budgetBytes: number;
  /** Larger bodies are never kept (their cost is the transfer, not the rendering). */
  maxBodyBytes: number;
}

/** The server's cache when none is configured: 64 MB of answers, none over 1 MB. */
export const DEFAULT_RESPONSE_CACHE: ResponseCacheOptions = Object.freeze({
  budgetBytes: 64 * 1024 * 1024,
  maxBodyBytes: 1024 * 1024,
});

/** Requests with a longer key are never kept (a client could pad keys with ignored parameters). */
export const MAX_KEY_CHARS = 2048;
/**
 * Resident bytes an entry holds beside those of its body, key, tag and link: the entry
 * object and its Map slot, the identity body's Buffer (with, as measured, an ArrayBuffer and
 * native backing store of its own: a slab piece has neither),
 * the ETag strings and the two small arrays, with the room V8's heap keeps beside its live
 * objects (about as much again). Set with the one below from `node --expose-gc
 * dist/bench/micro/cache-overhead.js 40000` (Node 20) when every body and block had memory of
 * its own: the resident memory of 40,000 kept answers, each with gzip and br bodies and three
 * header blocks, was 0.90–1.01 × what they count, for bodies of 300 B to 20 kB. Bodies and blocks
 * now share slabs (`Slabs`) and hold less: 0.60–0.88 × (the count errs high, never low).
 */
export const ENTRY_OVERHEAD_BYTES = 1500;
/** Resident bytes each further Buffer kept with an entry (a compressed body, a header block) holds beside its own (measured as above). */
export const BUFFER_OVERHEAD_BYTES = 1000;

/**
 * Bytes a string held by an entry takes: one per character when all are Latin-1 (V8 keeps
 * such strings one byte per character; a Buffer's UTF-8 length equals the string's length
 * only when all are ASCII), two otherwise, plus the string's header.
 */
export const textBytes = (text: string): number =>
  (Buffer.byteLength(text) === text.length ? text.length : 2 * text.length) + 24;

/**
 * Answers by request key. An answer is kept only when its key was asked before: a stream
 * of one-off requests (a scan over symbols, varied screens) then costs no allocation per
 * response, which would otherwise make V8 collect every few milliseconds.
 *
 * The budget counts what an entry really holds: its bodies (exactly their size), its header
 * blocks, its strings, and a measured overhead per entry and per Buffer; and the bytes slabs
 * still hold for pieces already dropped (`Slabs.dead`).
 */
export class ResponseCache {
  private readonly replies = new Map<string, CachedAnswer>();
  /** Which keys were asked once before: an answer is kept on its second ask. */
  private readonly doorkeeper = new Doorkeeper();
  private bytes = 0;
  private readonly slabs: Slabs;

  constructor(private readonly options: ResponseCacheOptions) {
    this.slabs = new Slabs(Slabs.sizeFor(options.budgetBytes));
  }

  /** Lookups that found a kept answer, and those that did not (for /metrics). */
  hits = 0;
  misses = 0;

  get(key: string): CachedAnswer | undefined {
    const kept = this.replies.get(key);
    if (kept === undefined) this.misses++;
    else this.hits++;
    return kept;
  }

  /**
   * The body of a kept answer to send for `encoding`, and the encoding it really has:
   * bodies under MIN_COMPRESSED_BYTES go as they are. A compressed body is made on the
   * first request that accepts it, kept with the answer and counted against the budget.
   */
  encoded(answer: CachedAnswer, encoding: Encoding): { body: Buffer; encoding: Encoding } {
    const used = encodingOf(answer, encoding);
    return { body: this.bodyIn(answer, used), encoding: used };
  }

  /** `encoded`'s body alone, for the encoding `encodingOf` gave (no object per request on the hot path). */
  bodyIn(answer: CachedAnswer, used: Encoding): Buffer {
    if (used === 'identity') return answer.body;
    let body = used === 'gzip' ? answer.gzip : answer.br;
    if (body === null) {
      // zlib's result is a view of a 16 KiB output buffer: kept as it is, a 2 KB body would hold all 16.
      body = this.slabs.copy(compress(answer.body, used));
      if (used === 'gzip') answer.gzip = body;
      else answer.br = body;
      this.grow(answer, body, body.length + BUFFER_OVERHEAD_BYTES);
    }
    return body;
  }

  /**
   * Keeps `block` as the header block of `answer`'s encoding `slot` (`encodingSlot`), its
   * value as bytes (sent without encoding it again), counted against the budget.
   */
  keepHead(answer: CachedAnswer, slot: 0 | 1 | 2, block: HeaderBlock): KeptHead {
    const value = this.slabs.copy(block.value);
    const kept = (answer.heads[slot] = { name: block.name, value });
    this.grow(answer, value, value.length + BUFFER_OVERHEAD_BYTES);
    return kept;
  }

  /**
   * Adds `piece` (of `bytes`) to what `answer` holds, and to the budget while it is kept; a piece
   * made for an answer already dropped (a request still sending it) is dropped at once.
   */
  private grow(answer: CachedAnswer, piece: Buffer, bytes: number): void {
    answer.bytes += bytes;
    if (this.replies.get(answer.key) === answer) this.bytes += bytes;
    else this.slabs.drop(piece);
    this.makeRoom(0);
  }

  /**
   * Offers the answer just computed for `key`. Returns the cached copy when it was kept
   * (send that: one Buffer, no assembly), else null.
   */
  offer(key: string, answer: Answer): CachedAnswer | null {
    const kept = this.replies.get(key);
    if (kept !== undefined) return kept; // answered twice at once (pool work): keep the first
    if (key.length > MAX_KEY_CHARS) return null;
    if (!this.doorkeeper.askedBefore(key)) return null;
    const { body } = answer;
    const whole = typeof body === 'string' || Buffer.isBuffer(body) ? body : assemble(body);
    const length = typeof whole === 'string' ? Buffer.byteLength(whole) : whole.length;
    if (length > this.options.maxBodyBytes) return null;
    const cost =
      length +
      textBytes(key) +
      (answer.tag === null ? 0 : textBytes(answer.tag)) +
      (answer.link === null ? 0 : textBytes(answer.link)) +
      ENTRY_OVERHEAD_BYTES;
    if (cost > this.options.budgetBytes) return null;
    this.makeRoom(cost);
    const cached = new CachedAnswer(answer, key, this.slabs.copy(whole), cost);
    this.replies.set(key, cached);
    this.bytes += cost;
    return cached;
  }

  /** Drops the oldest answers until `size` more bytes fit (Map iteration is insertion order), the slabs' dead bytes counted. */
  private makeRoom(size: number): void {
    for (const [key, old] of this.replies) {
      if (this.bytes + this.slabs.dead + size <= this.options.budgetBytes) return;
      this.replies.delete(key);
      this.bytes -= old.bytes;
      this.slabs.drop(old.body);
      this.slabs.drop(old.gzip);
      this.slabs.drop(old.br);
      for (const head of old.heads) if (head !== undefined) this.slabs.drop(head.value);
    }
  }

  /** Entries and bytes held (keys, overhead and the slabs' dead bytes included; tests read them). */
  get stats(): { entries: number; bytes: number } {
    return { entries: this.replies.size, bytes: this.bytes + this.slabs.dead };
  }
}

const caches = new WeakMap<object, ResponseCache>();

/** The response cache of `dataset` (made on first use with `options`), dropped with the Dataset. */
export function responseCacheOf(dataset: object, options: ResponseCacheOptions): ResponseCache {
  let cache = caches.get(dataset);
  if (cache === undefined) caches.set(dataset, (cache = new ResponseCache(options)));
  return cache;
}
