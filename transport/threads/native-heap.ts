// Gives the C allocator's free pages back to the system (glibc's malloc_trim), where the C library is glibc.

/**
 * glibc keeps memory that native code freed (V8's array buffers, lmdb-js, zlib, the GC's own
 * worklists) in its arenas, one per thread that allocated, up to a threshold that grows with
 * the largest block freed so far (a small part's copy, MBs). A reload frees such blocks in
 * several threads, so each reload left a little more resident: RssAnon 95 → 102 MB over 100
 * reloads of the full demo without this, 94 → 96 MB with it (bench/ops/editions.ts, `--parts
 * many-reloads`).
 * `malloc_trim(0)` returns every arena's free pages, whichever thread calls it.
 */
type Trim = (pad: number) => number;

/** undefined: not looked up yet; null: not glibc (or no FFI for this platform): nothing to do. */
let trim: Trim | null | undefined;

async function lookUp(): Promise<Trim | null> {
  if (process.platform !== 'linux') return null;
  try {
    // Loaded at the first trim (a reload or a quiet spell), never at start.
    const { default: koffi } = await import('koffi');
    return koffi.load('libc.so.6').func('int malloc_trim(size_t pad)') as Trim;
  } catch {
    return null; // musl and other C libraries: no libc.so.6 or no malloc_trim
  }
}

/** Returns the C allocator's free memory to the system; false where that cannot be done here. Under 1 ms here (the first call also loads koffi: ~25 ms). */
export async function trimNativeHeap(): Promise<boolean> {
  if (trim === undefined) trim = await lookUp();
  if (trim === null) return false;
  trim(0);
  return true;
}
