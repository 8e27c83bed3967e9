// Whole answers per Dataset: a request's body is a pure function of the immutable Dataset,
// the route, the plan and the raw request text, so a repeated request is one Map lookup.

import type { Encoding, Format } from '../http/negotiate.js';
import type { HeaderBlock } from '../respond.js';
import { assemble, type BodyPart } from './assemble.js';
import { compress, MIN_COMPRESSED_BYTES } from './encode.js';

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

/**
 * A kept answer: its identity body as one Buffer (sent without assembly) and, made on the
 * first request that accepts each, its gzip and br bodies: an answer never changes within
 * a data version, so it is compressed once, not per request.
 */
export interface CachedAnswer extends Answer {
  key: string;
  body: Buffer;
  gzip: Buffer | null;
  br: Buffer | null;
  /** The ETag of each encoding once sent, in ENCODING_SLOTS order. */
  etags: (string | undefined)[];
  /** The headers the body fixes per encoding once sent (ENCODING_SLOTS order), as bytes. */
  heads: (HeaderBlock | undefined)[];
}

/** Position of each encoding in `etags`. */
export const ENCODING_SLOTS: Readonly<Record<Encoding, 0 | 1 | 2>> = { identity: 0, gzip: 1, br: 2 };


export interface ResponseCacheOptions {
  /** Bytes of identity bodies kept; past it the oldest entries go first. */
  budgetBytes: number;
  /** Larger bodies are never kept (their cost is the transfer, not the rendering). */
  maxBodyBytes: number;
}

/** The server's cache when none is configured: 64 MB of answers, none over 1 MB. */
export const DEFAULT_RESPONSE_CACHE: ResponseCacheOptions = Object.freeze({ budgetBytes: 64 * 1024 * 1024, maxBodyBytes: 1024 * 1024 });

/** Characters of keys remembered as "asked once" before that memory starts over. */
const DOORKEEPER_CHARS = 4 * 1024 * 1024;
/** Requests with a longer key are never kept (a client could pad keys with ignored parameters). */
export const MAX_KEY_CHARS = 2048;
/** What an entry costs beside its body and key: the Map slot, the reply and Buffer objects. */
const ENTRY_OVERHEAD_BYTES = 200;

/**
 * Answers by request key. An answer is kept only when its key was asked before: a stream
 * of one-off requests (a scan over symbols, varied screens) then costs no allocation per
 * response, which would otherwise make V8 collect every few milliseconds.
 */
export class ResponseCache {
  private readonly replies = new Map<string, CachedAnswer>();
  private readonly askedOnce = new Set<string>();
  private askedChars = 0;
  private bytes = 0;

  constructor(private readonly options: ResponseCacheOptions) {}

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
    if (encoding === 'identity' || answer.body.length < MIN_COMPRESSED_BYTES) return { body: answer.body, encoding: 'identity' };
    let body = answer[encoding];
    if (body === null) {
      body = answer[encoding] = compress(answer.body, encoding);
      if (this.replies.get(answer.key) === answer) (this.bytes += body.length), this.makeRoom(0); // still kept: it counts
    }
    return { body, encoding };
  }

  /**
   * Offers the answer just computed for `key`. Returns the cached copy when it was kept
   * (send that: one Buffer, no assembly), else null.
   */
  offer(key: string, answer: Answer): CachedAnswer | null {
    const kept = this.replies.get(key);
    if (kept !== undefined) return kept; // answered twice at once (pool work): keep the first
    if (key.length > MAX_KEY_CHARS) return null;
    if (!this.askedOnce.delete(key)) {
      if (this.askedChars + key.length > DOORKEEPER_CHARS) (this.askedOnce.clear(), (this.askedChars = 0));
      this.askedOnce.add(key);
      this.askedChars += key.length;
      return null;
    }
    this.askedChars -= key.length;
    const { body } = answer;
    const bytes = ownCopy(typeof body === 'string' || Buffer.isBuffer(body) ? body : assemble(body));
    if (bytes.length > this.options.maxBodyBytes) return null;
    const cost = bytes.length + key.length + ENTRY_OVERHEAD_BYTES;
    if (cost > this.options.budgetBytes) return null;
    this.makeRoom(cost);
    const cached: CachedAnswer = { ...answer, key, body: bytes, gzip: null, br: null, etags: [], heads: [] };
    this.replies.set(key, cached);
    this.bytes += cost;
    return cached;
  }

  /** Drops the oldest answers until `size` more bytes fit (Map iteration is insertion order). */
  private makeRoom(size: number): void {
    for (const [key, old] of this.replies) {
      if (this.bytes + size <= this.options.budgetBytes) return;
      this.replies.delete(key);
      this.bytes -= costOf(old);
    }
  }

  /** Entries and bytes held, keys and overhead included (tests read them). */
  get stats(): { entries: number; bytes: number } {
    return { entries: this.replies.size, bytes: this.bytes };
  }
}

/** Bytes an entry holds against the budget: its bodies, its key and a fixed overhead. */
const costOf = (a: CachedAnswer): number => a.body.length + (a.gzip?.length ?? 0) + (a.br?.length ?? 0) + a.key.length + ENTRY_OVERHEAD_BYTES;

/**
 * The body in memory of its own, exactly its size: small `Buffer.from` results share 8 KB
 * pool slabs, which a long-lived 50-byte answer would keep alive whole.
 */
function ownCopy(body: string | Buffer): Buffer {
  if (typeof body === 'string') {
    const bytes = Buffer.allocUnsafeSlow(Buffer.byteLength(body));
    bytes.write(body);
    return bytes;
  }
  const bytes = Buffer.allocUnsafeSlow(body.length);
  body.copy(bytes);
  return bytes;
}

const caches = new WeakMap<object, ResponseCache>();

/** The response cache of `dataset` (made on first use with `options`), dropped with the Dataset. */
export function responseCacheOf(dataset: object, options: ResponseCacheOptions): ResponseCache {
  let cache = caches.get(dataset);
  if (cache === undefined) caches.set(dataset, (cache = new ResponseCache(options)));
  return cache;
}
