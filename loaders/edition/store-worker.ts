// A worker of a store (its pool's task file, or run in the storing thread): a piece of a K-line
// file read, a market assembled or merged, a file recorded, a part written.

import { parentPort } from 'node:worker_threads';
import type { ParsedMarket } from '../snapshot/parsed-snapshot.js';
import type { FileRead } from '../snapshot/assemble-market.js';
import type { FileRef } from '../snapshot/read-csv.js';
import type { MarketTask, MarketTaskResult } from '../snapshot/read-market-task.js';
import { runMarketTask } from '../snapshot/read-snapshot.js';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import { type FileChange, type FileRecord, fileRecord } from './file-hashes.js';
import type { PartMeta } from './layout.js';
import { type MergeTask, mergeMarket } from './merge-market.js';
import { abandonPart, beginPart, type PartInProgress, writePart } from './write-part.js';

export type StoreTask =
  | MarketTask
  | { kind: 'merge'; task: MergeTask; dir: string; sync: boolean }
  | { kind: 'record'; file: FileRef; known: FileRecord | null }
  | { kind: 'write'; market: ParsedMarket; dir: string; sync: boolean };

/** A rejection crosses the thread boundary as plain data (structured clone drops Error fields). */
export type Rejected = { ok: false; file: string; line: number; reason: string };

export type StoreTaskResult =
  | MarketTaskResult
  | ({ kind: 'merge' } & ({ ok: true; meta: PartMeta; reads: FileRead[]; appendedOnly: boolean } | Rejected))
  | ({ kind: 'record' } & ({ ok: true; record: FileRecord; change: FileChange } | Rejected))
  | { kind: 'write'; meta: PartMeta };

const rejected = (error: unknown): Rejected => {
  if (!(error instanceof SnapshotError)) throw error;
  return { ok: false, file: error.file, line: error.line, reason: error.reason };
};

export async function runStoreTask(task: StoreTask, onRows: (rows: number) => void): Promise<StoreTaskResult> {
  switch (task.kind) {
    case 'merge': {
      // Merged and written by one thread, straight into the part's memory map.
      let part = null as PartInProgress | null;
      let merged: Awaited<ReturnType<typeof mergeMarket>>;
      try {
        merged = await mergeMarket(task.task, (size) => (part = beginPart(task.dir, size)).bytes);
      } catch (error) {
        if (part !== null) await abandonPart(part);
        return { kind: 'merge', ...rejected(error) };
      }
      return {
        kind: 'merge',
        ok: true,
        meta: await writePart(merged.parsed, task.dir, { sync: task.sync, part: part ?? undefined }),
        reads: merged.reads,
        appendedOnly: merged.appendedOnly,
      };
    }
    case 'record':
      return fileRecord(task.file, task.known ?? undefined).then(
        (r) => ({ kind: 'record', ok: true, ...r }),
        (error: unknown) => ({ kind: 'record', ...rejected(error) }),
      );
    case 'write':
      return { kind: 'write', meta: await writePart(task.market, task.dir, { sync: task.sync }) };
    default:
      return runMarketTask(task, onRows);
  }
}

export default function storeTask(task: StoreTask): Promise<StoreTaskResult> {
  return runStoreTask(task, (rows) => parentPort?.postMessage({ rows }));
}
