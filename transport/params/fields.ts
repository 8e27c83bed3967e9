// The one `fields` rule: items matched case-insensitively against a catalogue, `*` for all,
// answered in the catalogue's order (K-lines, detail and screen alike).

import { KLINE_FIELDS, KLINE_SHORT_CODES, type KlineField, SNAPSHOT_COLUMNS } from '../../engine/columns.js';
import { projectKlineFields, projectSnapshotColumns } from '../../engine/kernels/project-fields.js';
import { badParam } from '../problem.js';
import { list, type Param } from './declare.js';

/** K-line fields (short codes or names, or `*`); `fallback` when absent. */
export function klineFieldsParam(fallback: readonly string[], doc: string): Param<KlineField[]> {
  const items = list(
    false,
    { type: 'string', enum: ['*', ...Object.keys(KLINE_SHORT_CODES), ...KLINE_FIELDS] },
    `${doc} Case-insensitive.`,
  );
  const defaults = resolve(projectKlineFields(fallback), 'fields');
  return {
    ...items,
    parse: (raw, name) => (raw === undefined ? defaults : resolve(projectKlineFields(items.parse(raw, name)!), name)),
  };
}

/** Snapshot columns (or `*`) in the snapshot table's order with symbol and date; null when absent. */
export function snapshotFieldsParam(doc: string): Param<string[] | null> {
  const items = list(
    false,
    { type: 'string', enum: ['*', ...SNAPSHOT_COLUMNS.map((c) => c.name)] },
    `${doc} Case-insensitive.`,
  );
  return {
    ...items,
    parse: (raw, name) => (raw === undefined ? null : resolve(projectSnapshotColumns(items.parse(raw, name)!), name)),
  };
}

function resolve<T>(projection: { ok: true; fields: T[] } | { ok: false; unknown: string }, name: string): T[] {
  if (!projection.ok) throw badParam(name, `unknown column '${projection.unknown}'`);
  return projection.fields;
}
