// Snapshot rows (detail, screen) as JSON bytes, rendered once per symbol and column set.

import type { SnapshotView } from '../../engine/dataset/dataset.js';
import { ByteWriter } from '../serialise/byte-writer.js';
import { writeSnapshotRow } from '../serialise/snapshot-json.js';

/** Bytes of a table's first slab of rows; each next one is twice the last, up to SLAB_MAX_BYTES (a row longer gets one its size). */
const SLAB_MIN_BYTES = 1024;
const SLAB_MAX_BYTES = 64 * 1024;
/**
 * Resident bytes a kept row holds beside its own (in its slab): its Buffer view, a typed array
 * object of ~100 bytes, with the room V8's heap keeps beside it (measured: 200,000 views of
 * one slab, Node 20: 104 bytes of heap each, 212 resident).
 */
export const ROW_OVERHEAD_BYTES = 200;
/** Resident bytes of a table's row array per symbol position (a pointer, with the heap's room), and of its fixed part. */
const SLOT_BYTES = 16;
const TABLE_OVERHEAD_BYTES = 300;
/** Resident bytes of a column set itself (its objects, Map slot and registry entries) beside its key's characters. */
const SET_OVERHEAD_BYTES = 600;

/** A column set's rows: per table (weakly, so an as-of table's rows go with it), in recency order for eviction. */
class RowSet {
  readonly tables = new WeakMap<object, TableRows>();
  /** The accounts of its tables' rows, to uncount with the set (or with a table that is collected first). */
  readonly accounts = new Set<Account>();
  bytes = 0;
  /** Read since the eviction hand last passed (second-chance LRU: no Map reshuffle per hit). */
  used = false;
  evicted = false;
}

/** What one table's rows in one set hold; the finalization registry keeps it (not the rows) until the table is collected. */
interface Account {
  set: RowSet;
  bytes: number;
}

/**
 * The rows of one table in one column set, by symbol position: views of slabs of its own, so
 * the rows of a dropped set or table free their memory whole (no slab shared with others).
 */
class TableRows {
  readonly rows: (Buffer | undefined)[];
  private slab: Buffer | null = null;
  private at = 0;

  constructor(
    size: number,
    readonly account: Account,
  ) {
    this.rows = new Array(size);
  }

  /** The writer's bytes as a kept row (the writer is emptied); returns the row and the resident bytes it added. */
  keep(w: ByteWriter, i: number): { row: Buffer; added: number } {
    let added = ROW_OVERHEAD_BYTES;
    if (this.slab === null || this.slab.length - this.at < w.pos) {
      const size = Math.max(
        w.pos,
        this.slab === null ? SLAB_MIN_BYTES : Math.min(SLAB_MAX_BYTES, 2 * this.slab.length),
      );
      this.slab = Buffer.allocUnsafeSlow(size);
      this.at = 0;
      added += size;
    }
    const row = this.slab.subarray(this.at, this.at + w.pos);
    this.at += w.moveTo(this.slab, this.at);
    this.rows[i] = row;
    return { row, added };
  }
}

/**
 * Rendered snapshot rows of one Dataset (its own tables and those as of past days), per
 * column set (a detail's `fields`, a screen's row columns) and symbol. The rows never change
 * for a Dataset. What they hold (slabs, row views, row arrays) is counted against
 * `budgetBytes`; past it the least recently used column sets go first (second chance), so
 * the few sets most requests use stay while one-off `fields` lists come and go. The rows of
 * an as-of table are kept weakly and uncounted once the table is collected.
 */
export class SnapshotTextCache {
  private readonly sets = new Map<string, RowSet>();
  private size = 0;
  private readonly writer = new ByteWriter(4096);
  private readonly collected = new FinalizationRegistry<Account>((account) => {
    account.set.accounts.delete(account);
    if (account.set.evicted) return;
    account.set.bytes -= account.bytes;
    this.size -= account.bytes;
  });

  constructor(private readonly budgetBytes: number) {}

  /** The JSON of symbol `i` in `m` with `columns` (named `columnsKey`), kept or rendered now. */
  row(m: SnapshotView, i: number, columns: readonly string[], columnsKey: string): Buffer {
    if (this.budgetBytes === 0) return (writeSnapshotRow(this.writer, m, i, columns), this.writer.take());
    let set = this.sets.get(columnsKey);
    if (set === undefined) {
      this.sets.set(columnsKey, (set = new RowSet()));
      const bytes = SET_OVERHEAD_BYTES + 2 * columnsKey.length; // the key, the set and its Map slot
      set.bytes += bytes;
      this.size += bytes;
    }
    let table = set.tables.get(m.snapshots);
    if (table !== undefined) {
      const hit = table.rows[i];
      if (hit !== undefined) return ((set.used = true), hit);
    }
    writeSnapshotRow(this.writer, m, i, columns);
    if (table === undefined) {
      const account: Account = { set, bytes: 0 };
      set.tables.set(m.snapshots, (table = new TableRows(m.symbols.size, account)));
      set.accounts.add(account);
      this.collected.register(m.snapshots, account, account);
      this.count(set, account, TABLE_OVERHEAD_BYTES + SLOT_BYTES * m.symbols.size);
    }
    const { row, added } = table.keep(this.writer, i);
    this.count(set, table.account, added);
    if (this.size > this.budgetBytes) this.evict(set);
    return row;
  }

  /** Bytes held, everything counted (tests and /metrics-like checks read it). */
  get bytes(): number {
    return this.size;
  }

  private count(set: RowSet, account: Account, bytes: number): void {
    account.bytes += bytes;
    set.bytes += bytes;
    this.size += bytes;
  }

  /**
   * Drops column sets from the oldest end until the rows fit. A set read again (a hit) since
   * the hand last passed gets a second chance, so a set most requests use stays while sets
   * asked once go first; `current` (being filled by this request) goes only when nothing else is left.
   */
  private evict(current: RowSet): void {
    for (const [key, set] of this.sets) {
      if (this.size <= this.budgetBytes) return;
      if (set === current && this.sets.size > 1) continue;
      this.sets.delete(key);
      if (set.used) {
        set.used = false;
        this.sets.set(key, set);
        continue;
      }
      set.evicted = true;
      for (const account of set.accounts) this.collected.unregister(account);
      set.accounts.clear();
      this.size -= set.bytes;
    }
  }
}
