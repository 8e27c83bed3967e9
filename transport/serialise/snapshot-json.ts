// A snapshot row (detail, screen) as JSON text, written straight into bytes.

import { dateText } from '../../engine/calendar/date-text.js';
import { SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import type { SnapshotView } from '../../engine/dataset/dataset.js';
import { NO_DATE } from '../../engine/kernels/derive-snapshot.js';
import type { ByteWriter } from './byte-writer.js';

const KIND = new Map(SNAPSHOT_COLUMNS.map((c) => [c.name, c.kind]));

/** Writes symbol `i`'s snapshot with `columns` (spec table order) into `w`: `{"symbol":…,…}`. */
export function writeSnapshotRow(w: ByteWriter, m: SnapshotView, i: number, columns: readonly string[]): void {
  const labels = m.symbols.labels;
  w.ascii('{');
  columns.forEach((name, c) => {
    w.ascii(c === 0 ? `"${name}":` : `,"${name}":`);
    if (name === 'symbol')
      w.ascii(`"${m.symbols.codes[i]}"`); // codes are [A-Za-z0-9._-]
    else if (name === 'date') w.ascii(m.snapshots.date[i] === NO_DATE ? 'null' : `"${dateText(m.snapshots.date[i])}"`);
    else if (KIND.get(name) === 'number') w.number(m.snapshots.values[name][i]);
    else {
      const text =
        name === 'name' ? labels.names[i] : name === 'market_name' ? labels.marketNames[i] : labels.marketTypes[i];
      if (text === null || text === undefined) w.ascii('null');
      else w.string(text);
    }
  });
  w.ascii('}');
}
