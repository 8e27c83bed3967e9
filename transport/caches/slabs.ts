// What the answer cache keeps, copied into shared slabs: uWS reads a Buffer's bytes through its
// backing store, and one backing store per kept piece (thousands, scattered) missed the CPU's
// caches on every send; a few slabs do not.

/** Bytes of one slab at most (a 64th of the budget when that is less; none under 4 KiB). */
export const SLAB_BYTES = 256 * 1024;
const MIN_SLAB_BYTES = 4096;

/** One slab: its memory, the bytes handed out of it, and those of them kept pieces still hold. */
interface Slab {
  bytes: Buffer;
  used: number;
  live: number;
}

/** A piece's bytes in a slab: each starts 8-aligned. */
const aligned = (length: number): number => (length + 7) & ~7;

/**
 * Pieces (bodies, compressed bodies, header blocks) copied in turn into shared slabs. A slab's
 * memory is freed once no piece in it is kept, so a dropped piece's bytes stay held until then: they are
 * `dead`, which the budget counts with the entries. Pieces over a 16th of a slab keep memory
 * of their own.
 */
export class Slabs {
  /** Bytes of dropped pieces in slabs still held (by a kept piece, or being filled). */
  dead = 0;
  private current: Slab | null = null;
  private readonly slabOf = new WeakMap<ArrayBufferLike, Slab>();
  /** The largest piece a slab takes (0: no slabs). */
  readonly maxPiece: number;

  constructor(private readonly slabBytes: number) {
    this.maxPiece = slabBytes >= MIN_SLAB_BYTES ? slabBytes >> 4 : 0;
  }

  /** The slab size for a cache of `budgetBytes`: small enough that one held slab is a small part of it. */
  static sizeFor(budgetBytes: number): number {
    return Math.min(SLAB_BYTES, Math.floor(budgetBytes / 64));
  }

  /**
   * `piece`'s bytes in a slab (over `maxPiece`, or empty: memory of its own). The view stays valid
   * after the piece is dropped: a slab's memory is never reused, only freed once unreachable, so
   * a request still sending a dropped answer sends its bytes.
   */
  copy(piece: string | Buffer): Buffer {
    const length = typeof piece === 'string' ? Buffer.byteLength(piece) : piece.length;
    if (length === 0 || length > this.maxPiece) return ownCopy(piece);
    let slab = this.current;
    if (slab === null || slab.used + length > this.slabBytes) {
      if (slab !== null && slab.live === 0) this.dead -= slab.used; // nothing kept in it: freed
      slab = this.current = { bytes: Buffer.allocUnsafeSlow(this.slabBytes), used: 0, live: 0 };
      this.slabOf.set(slab.bytes.buffer, slab);
    }
    const bytes = slab.bytes.subarray(slab.used, slab.used + length);
    if (typeof piece === 'string') bytes.write(piece);
    else piece.copy(bytes);
    slab.used += aligned(length);
    slab.live += aligned(length);
    return bytes;
  }

  /** A piece is no longer kept: its bytes are dead until its slab holds no kept piece, then the slab's are freed. */
  drop(piece: Buffer | null): void {
    const slab = piece === null ? undefined : this.slabOf.get(piece.buffer);
    if (slab === undefined) return; // memory of its own (or none): freed with its Buffer
    slab.live -= aligned(piece!.length);
    this.dead += aligned(piece!.length);
    if (slab.live === 0 && slab !== this.current) this.dead -= slab.used;
  }
}

/**
 * Bytes in memory of their own, exactly their size: small `Buffer.from` results share 8 KiB
 * pool slabs and zlib's results are views of 16 KiB output buffers, which a long-lived
 * 50-byte answer would keep alive whole.
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
