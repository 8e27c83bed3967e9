// Whole answers per Dataset: a request's body is a pure function of the immutable Dataset,
// the route, the plan and the raw request text, so a repeated request is one Map lookup.

import type { Reply } from '../route.js';
import { assemble, type BodyPart } from './assemble.js';

/** A cached answer: the reply with its body as one Buffer (sent without assembly). */
export type CachedReply = Reply & { body: [Buffer] };

export interface ResponseCacheOptions {
  /** Bytes of bodies kept; past it the oldest entries go first. */
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
  private readonly replies = new Map<string, CachedReply>();
  private readonly askedOnce = new Set<string>();
  private askedChars = 0;
  private bytes = 0;

  constructor(private readonly options: ResponseCacheOptions) {}

  get(key: string): CachedReply | undefined {
    return this.replies.get(key);
  }

  /**
   * Offers the answer just computed for `key`. Returns the cached copy when it was kept
   * (send that: one Buffer, no assembly), else null.
   */
  offer(key: string, reply: Reply, body: string | Buffer | BodyPart[]): CachedReply | null {
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
    const bytes = ownCopy(typeof body === 'string' || Buffer.isBuffer(body) ? body : assemble(body));
    if (bytes.length > this.options.maxBodyBytes) return null;
    const cost = costOf(key, bytes);
    if (cost > this.options.budgetBytes) return null;
    this.makeRoom(cost);
    const cached: CachedReply = { shape: reply.shape, rows: reply.rows, body: [bytes] };
    this.replies.set(key, cached);
    this.bytes += cost;
    return cached;
  }

  /** Drops the oldest answers until `size` more bytes fit (Map iteration is insertion order). */
  private makeRoom(size: number): void {
    for (const [key, old] of this.replies) {
      if (this.bytes + size <= this.options.budgetBytes) return;
      this.replies.delete(key);
      this.bytes -= costOf(key, old.body[0]);
    }
  }

  /** Entries and bytes held, keys and overhead included (tests read them). */
  get stats(): { entries: number; bytes: number } {
    return { entries: this.replies.size, bytes: this.bytes };
  }
}

/** Bytes an entry holds against the budget: body, key and a fixed overhead. */
const costOf = (key: string, body: Buffer): number => body.length + key.length + ENTRY_OVERHEAD_BYTES;

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
