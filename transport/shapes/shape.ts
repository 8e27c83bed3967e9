// What a response shape is: its JSON Schema and one renderer per way out (JSON, plain value, CSV rows).

import type { DatasetCaches } from '../caches/caches.js';
import type { Schema } from '../schemas/common.js';
import type { BodyPart } from '../serialise/assemble.js';
import type { Offset } from '../serialise/flatbuffer-kit.js';

/** The paging figures of a paged answer's value: rows before paging, rows in this page, and the page asked for. */
export interface PageValue {
  total: number;
  count: number;
  limit: number;
  offset: number;
}

/** Rows of a CSV answer: the header's keys, and one array of cells per row (null: empty cell). */
export interface CsvTable {
  columns: readonly string[];
  rows: Iterable<readonly unknown[]>;
}

/** The rendered rows a JSON renderer reads and keeps: its Dataset's (`DatasetCaches`). */
export type RowCaches = Pick<DatasetCaches, 'klineRows' | 'snapshotRows'>;

/**
 * One response shape. Routes hand it engine results (`R`); the pipeline picks the renderer
 * of the negotiated format. `json` is the fast path (rendered row text kept per Dataset, in
 * `rows`); `value` is the same answer as plain data, which msgpack and flatbuffers encode and
 * CSV flattens, and which the tests hold `json` to.
 */
export interface Shape<R> {
  /** Its key in SHAPES (index.ts) and its name in the schema's components. */
  readonly name: string;
  readonly schema: Schema;
  json(result: R, rows: RowCaches): string | BodyPart[];
  value(result: R): unknown;
  /** The value's rows for CSV (the header from the result's column set), or null when the shape has no rows (CSV is then 406). */
  // biome-ignore lint/suspicious/noExplicitAny: the rows are read from the shape's own value type, which this field cannot name
  readonly csv: ((value: any, result: R) => CsvTable) | null;
  /** The root table of mdq.fbs its FlatBuffers answers hold. */
  readonly table: string;
  /** Writes the value's root table with the FlatBuffers kit (serialise/flatbuffer-kit.ts). */
  // biome-ignore lint/suspicious/noExplicitAny: the table is written from the shape's own value type, which this field cannot name
  readonly flatbuffer: (value: any) => Offset;
}

/** CSV rows of an array of flat objects, in `columns` order. */
export function rowsOf(data: readonly Record<string, unknown>[], columns: readonly string[]): CsvTable {
  return { columns, rows: data.map((row) => columns.map((c) => row[c])) };
}
