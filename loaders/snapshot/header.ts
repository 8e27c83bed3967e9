// Finds a CSV's columns by name (any order, extras ignored) and names what is missing.

import { SnapshotError } from './snapshot-error.js';

/** Column positions by name; -1 for an optional column the file does not have. */
export type ColumnIndex<Name extends string> = Record<Name, number>;

export function indexColumns<Req extends string, Opt extends string = never>(
  display: string,
  names: readonly string[],
  required: readonly Req[],
  optional: readonly Opt[] = [],
): ColumnIndex<Req | Opt> {
  const seen = new Map<string, number>();
  names.forEach((name, i) => {
    if (name !== '' && seen.has(name)) throw new SnapshotError(display, 1, `duplicate column '${name}'`);
    seen.set(name, i);
  });
  const index = {} as ColumnIndex<Req | Opt>;
  for (const name of required) {
    const at = seen.get(name);
    if (at === undefined) throw new SnapshotError(display, 1, `missing required column '${name}'`);
    index[name] = at;
  }
  for (const name of optional) index[name] = seen.get(name) ?? -1;
  return index;
}
