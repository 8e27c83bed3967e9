// Joins a response's pieces in one reused buffer: no fresh ~15 KB allocation per response.

/** One piece of a body: ASCII/UTF-8 text (envelopes) or bytes (cached rendered rows). */
export type BodyPart = string | Buffer;

let scratch = Buffer.allocUnsafe(1 << 20);

/**
 * Copies `parts` back to back into a process-wide scratch buffer and returns a view of it.
 * The view is valid only until the next call: hand it straight to uWS's `end()`, which
 * copies it. (A fresh Buffer per response made V8 run a full collection every ~10 ms under
 * load: external memory pressure; measured 40 % of busy time.)
 */
export function assemble(parts: readonly BodyPart[]): Buffer {
  // At most 3 UTF-8 bytes per UTF-16 unit: within that bound the text is written without being
  // measured first (one pass over a batch's 5 KB of rows, not two); past it, measured exactly.
  let bound = 0;
  for (const part of parts) bound += typeof part === 'string' ? 3 * part.length : part.length;
  if (bound > scratch.length) {
    let size = 0;
    for (const part of parts) size += typeof part === 'string' ? Buffer.byteLength(part) : part.length;
    if (size > scratch.length) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
  }
  let at = 0;
  for (const part of parts) {
    if (typeof part === 'string') at += scratch.write(part, at);
    else scratch.set(part, at), (at += part.length); // TypedArray#set: ~30 % less per piece than Buffer#copy
  }
  return scratch.subarray(0, at);
}
