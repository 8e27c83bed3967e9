// A market's K-line files read in pieces: a large file cut at line ends into byte ranges that
// parse side by side (each with rows and symbols of its own, joined afterwards), the new tail
// of a file that grew, a gzip file whole. A piece also hashes the stored bytes it covers.

import { open } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { BLOCK_BYTES, BlockHasher, type FileBlocks } from './block-hash.js';
import { readFileBytes } from './file-bytes.js';
import { indexColumns } from './header.js';
import { KlineLineParser, type KlineLayout, type KlineRows } from './kline-lines.js';
import type { LoadLimits } from './limits.js';
import type { FileRef } from './read-csv.js';
import { RepeatedRowError } from './repeated-dates.js';
import { RowError, SnapshotError } from './snapshot-error.js';
import { splitCells } from './split-cells.js';
import { SymbolRegistry } from './symbol-registry.js';

const NEWLINE = 10;
const CR = 13;
/**
 * Bytes of a plain file one piece owns (16 MiB: a piece is read whole, into a buffer its thread
 * keeps): pieces start on block boundaries, so their blocks join into the file's.
 */
export const PIECE_BYTES = 4 * BLOCK_BYTES;
const PRICES = ['open', 'high', 'low', 'close', 'volume', 'amount'] as const;

/** One piece to parse. */
export interface KlinePiece {
  path: string;
  display: string;
  limits: LoadLimits;
  layout: KlineLayout;
  gzip: boolean;
  /**
   * The stored bytes [start, end) whose lines it owns (a line belongs to the piece its first
   * byte is in); `end` null: to the end. A gzip piece is the whole file, or (start > 0) the
   * members appended at `start`.
   */
  start: number;
  end: number | null;
  /** Where its first line starts when known (the header's end; a tail after a line break); null: the first line start at or after `start`. */
  lineStart: number | null;
  /** The number of its first line when known; null: its lines are counted from 1 and made the file's by the caller. */
  firstLine: number | null;
  /** Whether it holds the file's header line (skipped, but counted in its lines). */
  header: boolean;
  /** Blocks before `start` to go on from when hashing a tail (the caller checked them); null: `start` is 0 or a block boundary. */
  blocksBefore: FileBlocks | null;
}

/** What a piece gave: its rows' count (written into the columns it was given, ids in its own symbol list), its lines, and the blocks it hashed. */
export type PieceResult =
  | {
      ok: true;
      /** Rows written. */
      rows: number;
      /** Its own symbols, by id in the rows it wrote. */
      symbols: string[];
      /** Physical lines it read (the header's included for the file's first piece). */
      lines: number;
      endsWithNewline: boolean;
      blocks: FileBlocks;
    }
  | {
      ok: false;
      /** Counted as `firstLine` says: from the piece's first line when that was null; 0: the file as a whole. */
      line: number;
      reason: string;
      repeat: { symbol: string; date: number; firstLine: number } | null;
    };

/** The column layout of a K-line file, from its first line (read alone). */
export async function readKlineLayout(file: FileRef): Promise<{ layout: KlineLayout; headerBytes: number }> {
  const STOP = Symbol('header');
  let head = Buffer.alloc(0);
  try {
    await readFileBytes(file, null, (chunk) => {
      head = Buffer.concat([head, chunk]);
      if (head.indexOf(NEWLINE) >= 0 || head.length > file.limits.maxLineBytes + 2) throw STOP;
    });
  } catch (error) {
    if (error !== STOP) throw error;
  }
  const newline = head.indexOf(NEWLINE);
  if (newline < 0 && head.length > file.limits.maxLineBytes + 1)
    throw new SnapshotError(file.display, 1, `line longer than ${file.limits.maxLineBytes} bytes`);
  const end = newline < 0 ? head.length : newline;
  const raw = head.toString('utf8', 0, end);
  const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (text.indexOf('\uFFFD') >= 0)
    throw new SnapshotError(file.display, 1, 'not UTF-8 text (or a U+FFFD replacement character)');
  if (newline < 0 && text.length === 0)
    throw new SnapshotError(file.display, 1, 'empty file: a header row is required');
  const names = splitCells(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (names.length === 1 && names[0].trim() === '')
    throw new SnapshotError(file.display, 1, 'no header: the first line must name the columns');
  const index = indexColumns(
    file.display,
    names.map((name) => name.trim().toLowerCase()),
    ['symbol', 'date', ...PRICES],
    ['adj_factor'],
  );
  return {
    layout: { ...index, adj: index.adj_factor, width: names.length },
    headerBytes: newline < 0 ? head.length : newline + 1,
  };
}

/** The pieces of a whole file: a gzip in one, a plain file in PIECE_BYTES ranges (the first after its header). */
export function piecesOf(file: FileRef, layout: KlineLayout, headerBytes: number, size: number): KlinePiece[] {
  const base = { path: file.path, display: file.display, limits: file.limits, layout, blocksBefore: null };
  if (file.path.endsWith('.gz'))
    return [{ ...base, gzip: true, start: 0, end: null, lineStart: null, firstLine: 2, header: true }];
  const pieces: KlinePiece[] = [];
  for (let start = 0; start === 0 || start < size; start += PIECE_BYTES)
    pieces.push({
      ...base,
      gzip: false,
      start,
      end: start + PIECE_BYTES >= size ? null : start + PIECE_BYTES,
      lineStart: start === 0 ? headerBytes : null,
      firstLine: start === 0 ? 2 : null,
      header: start === 0,
    });
  return pieces;
}

/**
 * A buffer for a piece's bytes, kept by the thread (a piece is 64 MiB: fresh memory each time
 * would be faulted in again); a piece read while another is (pieces run here, not on a pool)
 * gets one of its own.
 */
let scratch: Buffer | null = null;
let scratchBusy = false;
async function withBytes<T>(length: number, use: (buf: Buffer) => Promise<T>): Promise<T> {
  if (scratchBusy) return use(Buffer.allocUnsafe(length));
  if (scratch === null || scratch.length < length) scratch = Buffer.allocUnsafe(length);
  scratchBusy = true;
  try {
    return await use(scratch);
  } finally {
    scratchBusy = false;
  }
}

/** A plain piece's bytes in memory: `buf` holds the file from `from`; the owned lines are [lineStart, stop) (file positions). */
interface OwnedBytes {
  buf: Buffer;
  from: number;
  end: number;
  lineStart: number;
  stop: number;
}

/** Reads the bytes a plain piece owns (and the byte before, and enough after to end its last line), then `use`s them. */
async function withOwned<T>(piece: KlinePiece, use: (o: OwnedBytes) => Promise<T> | T): Promise<T> {
  const handle = await open(piece.path, 'r');
  try {
    const size = (await handle.stat()).size;
    const end = piece.end === null ? size : Math.min(piece.end, size);
    const max = piece.limits.maxLineBytes;
    const from = piece.start > 0 ? piece.start - 1 : 0;
    return await withBytes(Math.max(0, Math.min(end - from + max + 3, size - from)), async (buf) => {
      let length = 0;
      while (length < buf.length) {
        const { bytesRead } = await handle.read(buf, length, buf.length - length, from + length);
        if (bytesRead === 0) break;
        length += bytesRead;
      }
      const view = buf.subarray(0, length);
      // Owned lines: from the first line start at or after `start` to the end of the line holding byte end - 1.
      let lineStart = piece.lineStart ?? piece.start;
      if (piece.lineStart === null && piece.start > 0 && view[piece.start - 1 - from] !== NEWLINE) {
        const newline = view.indexOf(NEWLINE, piece.start - from);
        lineStart = newline < 0 || newline >= end - from ? end : newline + 1 + from;
      }
      let stop = end;
      if (end < size && end > 0 && view[end - 1 - from] !== NEWLINE) {
        // A last line past what was read is longer than the bound: the parser refuses it, at its line.
        const newline = view.indexOf(NEWLINE, end - from);
        stop = newline < 0 ? from + length : newline + 1 + from;
      }
      return use({ buf: view, from, end, lineStart: Math.min(lineStart, stop), stop });
    });
  } finally {
    await handle.close();
  }
}

/** Non-blank lines of `buf[a, b)`: the rows a piece owns. */
function countRowsIn(buf: Buffer, a: number, b: number): number {
  let rows = 0;
  let lineStart = a;
  for (let i = buf.indexOf(NEWLINE, a); i >= 0 && i < b; i = buf.indexOf(NEWLINE, i + 1)) {
    const length = i - lineStart;
    if (length > 1 || (length === 1 && buf[i - 1] !== CR)) rows++;
    lineStart = i + 1;
  }
  const last = b - lineStart;
  if (last > 1 || (last === 1 && buf[b - 1] !== CR)) rows++;
  return rows;
}

/**
 * The rows a piece owns, counted before it is parsed: the columns of a market are made once, at
 * their size. A file that cannot be read throws a SnapshotError (the parse words a bad line).
 */
export async function countPiece(piece: KlinePiece): Promise<number> {
  if (!piece.gzip) return withOwned(piece, (o) => countRowsIn(o.buf, o.lineStart - o.from, o.stop - o.from));
  let rows = 0;
  let pending = Buffer.alloc(0);
  let skipHeader = piece.header;
  await readGzip(piece, null, (chunk) => {
    let data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    if (skipHeader) {
      const newline = data.indexOf(NEWLINE);
      if (newline < 0) return void (pending = Buffer.from(data));
      data = data.subarray(newline + 1);
      skipHeader = false;
    }
    const last = data.lastIndexOf(NEWLINE);
    if (last >= 0) rows += countRowsIn(data, 0, last + 1);
    const rest = data.subarray(last + 1);
    // A line past the bound: the parse refuses it at its line; counting stops there.
    if (rest.length > piece.limits.maxLineBytes + 2) throw TOO_LONG;
    pending = Buffer.from(rest);
  }).catch((error: unknown) => {
    if (error !== TOO_LONG) throw error;
    pending = Buffer.from('x');
  });
  return rows + (pending.length > 0 ? countRowsIn(pending, 0, pending.length) : 0);
}

const TOO_LONG = Symbol('too long');

/**
 * Parses one piece into `into` (views of the market's columns at the piece's place, as many rows
 * as it counted), in a pool worker or here; a rejection is its result, not a throw.
 */
export async function parsePiece(
  piece: KlinePiece,
  into: KlineRows,
  onRows: (rows: number) => void = () => {},
): Promise<PieceResult> {
  try {
    return piece.gzip ? await parseGzipPiece(piece, into, onRows) : await parsePlainPiece(piece, into, onRows);
  } catch (error) {
    if (error instanceof PieceRowError) return error.result;
    if (error instanceof SnapshotError) return { ok: false, line: 0, reason: error.reason, repeat: null };
    throw error;
  }
}

/** A RowError met on a line, carried out of the reading as the piece's result. */
class PieceRowError extends Error {
  constructor(readonly result: Extract<PieceResult, { ok: false }>) {
    super(result.reason);
  }
}

function failed(error: unknown, line: number): never {
  if (!(error instanceof RowError)) throw error;
  const repeat =
    error instanceof RepeatedRowError ? { symbol: error.symbol, date: error.date, firstLine: error.firstLine } : null;
  throw new PieceRowError({ ok: false, line, reason: error.reason, repeat });
}

const PROGRESS_EVERY = 1 << 17;

function parserFor(piece: KlinePiece, into: KlineRows, onRows: (rows: number) => void): KlineLineParser {
  return new KlineLineParser(
    piece.layout,
    new SymbolRegistry(),
    into,
    piece.limits.maxLineBytes,
    piece.firstLine ?? 1,
    (count) => {
      if ((count & (PROGRESS_EVERY - 1)) === 0) onRows(PROGRESS_EVERY);
    },
  );
}

async function parsePlainPiece(
  piece: KlinePiece,
  into: KlineRows,
  onRows: (rows: number) => void,
): Promise<PieceResult> {
  return withOwned(piece, ({ buf, from, end, lineStart, stop }) => {
    // Blocks: the stored bytes [start, end) (a tail's go on from the blocks before it, its first block re-fed).
    const hasher = new BlockHasher(piece.blocksBefore);
    hasher.update(buf.subarray(piece.start - from, end - from));
    const parser = parserFor(piece, into, onRows);
    try {
      parser.parse(buf, lineStart - from, stop - from);
    } catch (error) {
      failed(error, parser.line);
    }
    onRows(parser.count & (PROGRESS_EVERY - 1));
    const endsWithNewline =
      stop > lineStart
        ? buf[stop - 1 - from] === NEWLINE
        : piece.start === 0 || buf[piece.start - 1 - from] === NEWLINE;
    return {
      ok: true,
      rows: parser.count,
      symbols: parser.symbols,
      lines: (piece.header ? 1 : 0) + parser.line - (piece.firstLine ?? 1),
      endsWithNewline,
      blocks: hasher.done(),
    };
  });
}

/** A gzip piece: the whole file (its header line skipped), or the members appended at `start`, split into lines as they come. */
async function parseGzipPiece(
  piece: KlinePiece,
  into: KlineRows,
  onRows: (rows: number) => void,
): Promise<PieceResult> {
  const max = piece.limits.maxLineBytes;
  const parser = parserFor(piece, into, onRows);
  const hasher = new BlockHasher(piece.blocksBefore);
  let skipHeader = piece.header;
  let pending = Buffer.allocUnsafe(0);
  let lastByte = -1;
  await readGzip(piece, hasher, (chunk) => {
    if (chunk.length === 0) return;
    lastByte = chunk[chunk.length - 1];
    let data = pending.length > 0 ? Buffer.concat([pending, chunk]) : chunk;
    if (skipHeader) {
      const newline = data.indexOf(NEWLINE);
      if (newline < 0) return void (pending = Buffer.from(data));
      data = data.subarray(newline + 1);
      skipHeader = false;
    }
    const last = data.lastIndexOf(NEWLINE);
    try {
      if (last >= 0) parser.parse(data, 0, last + 1);
    } catch (error) {
      failed(error, parser.line);
    }
    const rest = data.subarray(last + 1);
    if (rest.length > max + 2) failed(new RowError(`line longer than ${max} bytes`), parser.line);
    pending = Buffer.from(rest);
  });
  if (pending.length > 0) {
    try {
      parser.parseLine(pending, 0, pending.length);
    } catch (error) {
      failed(error, parser.line);
    }
  }
  onRows(parser.count % PROGRESS_EVERY);
  return {
    ok: true,
    rows: parser.count,
    symbols: parser.symbols,
    lines: (piece.header ? 1 : 0) + parser.line - (piece.firstLine ?? 1),
    endsWithNewline: lastByte === NEWLINE,
    blocks: hasher.done(),
  };
}

/** A gzip piece's content: the whole file's, or the members from `start` on, decompressed; the stored bytes hashed when a hasher is given. */
async function readGzip(
  piece: KlinePiece,
  hasher: BlockHasher | null,
  onChunk: (bytes: Buffer) => void,
): Promise<void> {
  const file: FileRef = { path: piece.path, display: piece.display, limits: piece.limits };
  if (piece.start === 0) return readFileBytes(file, hasher, onChunk);
  const handle = await open(file.path, 'r');
  try {
    const size = (await handle.stat()).size;
    const stored = Buffer.allocUnsafe(size - piece.start);
    let length = 0;
    while (length < stored.length) {
      const { bytesRead } = await handle.read(stored, length, stored.length - length, piece.start + length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    hasher?.update(stored.subarray(0, length));
    const allowance = Math.max(file.limits.expansionFloorBytes, file.limits.maxExpansion * size);
    let expanded = 0;
    await pipeline(
      Readable.from([stored.subarray(0, length)]),
      createGunzip(),
      async (source: AsyncIterable<Buffer>) => {
        for await (const chunk of source) {
          expanded += chunk.length;
          if (expanded > allowance) throw new SnapshotError(file.display, 0, `expands to more than ${allowance} bytes`);
          onChunk(chunk);
        }
      },
    );
  } catch (error) {
    if (error instanceof SnapshotError || error instanceof PieceRowError) throw error;
    throw new SnapshotError(file.display, 0, `cannot read: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await handle.close();
  }
}
