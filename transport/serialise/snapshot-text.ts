// Snapshot rows (detail, screen) as JSON bytes, rendered once per symbol and column set.

import { dateText } from '../../engine/calendar/date-text.js';
import { SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import type { SnapshotView } from '../../engine/dataset/dataset.js';
import { NO_DATE } from '../../engine/kernels/derive-snapshot.js';
import { ByteWriter } from './byte-writer.js';

const KIND = new Map(SNAPSHOT_COLUMNS.map((c) => [c.name, c.kind]));

/** Renders symbol `i`'s snapshot with `columns` (spec table order): `{"symbol":…,…}`. */
function render(w: ByteWriter, m: SnapshotView, i: number, columns: readonly string[]): Buffer {
  const labels = m.symbols.labels;
  w.ascii('{');
  columns.forEach((name, c) => {
    w.ascii(c === 0 ? `"${name}":` : `,"${name}":`);
    if (name === 'symbol') w.ascii(`"${m.symbols.codes[i]}"`); // codes are [A-Za-z0-9._-]
    else if (name === 'date') w.ascii(m.snapshots.date[i] === NO_DATE ? 'null' : `"${dateText(m.snapshots.date[i])}"`);
    else if (KIND.get(name) === 'number') w.number(m.snapshots.values[name][i]);
    else {
      const text = name === 'name' ? labels.names[i] : name === 'market_name' ? labels.marketNames[i] : labels.marketTypes[i];
      if (text === null || text === undefined) w.ascii('null');
      else w.string(text);
    }
  });
  w.ascii('}');
  return w.take();
}

/**
 * Rendered snapshot rows of one Dataset (its own tables and those as of past days), per
 * column set (a detail's `fields`, a screen's row columns) and symbol. The rows never change
 * for a Dataset; past `budgetBytes` the cache starts over rather than keeping LRU order
 * (column sets are few: defaults dominate).
 */
export class SnapshotTextCache {
  /** Column set → the rows of each market's snapshot table. */
  private readonly sets = new Map<string, WeakMap<object, (Buffer | undefined)[]>>();
  private size = 0;
  private readonly writer = new ByteWriter(4096);

  constructor(private readonly budgetBytes: number) {}

  row(m: SnapshotView, i: number, columns: readonly string[], columnsKey: string): Buffer {
    // Keyed weakly by table: the rows of a table as of a past day go with it when the as-of
    // cache drops it. Its bytes still count here until the next clear, so the budget
    // overstates what is held then: it never lets more be held.
    let byMarket = this.sets.get(columnsKey);
    if (byMarket === undefined) this.sets.set(columnsKey, (byMarket = new WeakMap()));
    let rows = byMarket.get(m.snapshots);
    if (rows === undefined) byMarket.set(m.snapshots, (rows = new Array(m.symbols.size)));
    const hit = rows[i];
    if (hit !== undefined) return hit;
    const made = render(this.writer, m, i, columns);
    if (this.size + made.length > this.budgetBytes) {
      this.sets.clear();
      this.size = 0;
    } else {
      rows[i] = made;
      this.size += made.length;
    }
    return made;
  }
}

const caches = new WeakMap<object, SnapshotTextCache>();
const BUDGET_BYTES = 64 * 1024 * 1024;

/** The snapshot-row cache of `dataset` (created on first use), dropped with the Dataset. */
export function snapshotTextCacheOf(dataset: object): SnapshotTextCache {
  let cache = caches.get(dataset);
  if (cache === undefined) caches.set(dataset, (cache = new SnapshotTextCache(BUDGET_BYTES)));
  return cache;
}
