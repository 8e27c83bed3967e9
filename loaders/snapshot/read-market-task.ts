// A worker task of reading markets: one piece of a K-line file, or one market assembled from them.

import { parentPort } from 'node:worker_threads';
import type { AssembleTask, FileRead } from './assemble-market.js';
import type { KlineRows } from './kline-lines.js';
import type { KlinePiece, PieceResult } from './kline-pieces.js';
import type { ParsedMarket } from './parsed-snapshot.js';
import { runMarketTask } from './read-snapshot.js';

export type MarketTask =
  | { kind: 'count'; piece: KlinePiece }
  | { kind: 'piece'; piece: KlinePiece; into: KlineRows }
  | { kind: 'assemble'; task: AssembleTask };

/** A rejection crosses the thread boundary as plain data: structured clone drops Error fields. */
export type MarketTaskResult =
  | { kind: 'count'; rows: number }
  | { kind: 'count'; rows: null; file: string; line: number; reason: string }
  | { kind: 'piece'; result: PieceResult }
  | { kind: 'assemble'; ok: true; parsed: ParsedMarket; reads: FileRead[] }
  | { kind: 'assemble'; ok: false; file: string; line: number; reason: string };

/**
 * Runs the task. Rows and columns are made in SharedArrayBuffers, so results reach the other
 * threads without cloning the column bytes.
 */
export default function readMarketTask(task: MarketTask): Promise<MarketTaskResult> {
  return runMarketTask(task, (rows) => parentPort?.postMessage({ rows }));
}
