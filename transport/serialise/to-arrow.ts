// Renders the rows of an answer (its CSV table: the same columns as JSON's) as an Arrow IPC stream
// of one record batch, with apache-arrow: the format pandas, polars and DuckDB read without code.

import {
  type DataType,
  DateDay,
  Dictionary,
  Field,
  Float64,
  Int32,
  makeVector,
  RecordBatch,
  Schema,
  Struct,
  Table,
  tableToIPC,
  Utf8,
  type Vector,
  vectorFromArray,
  makeData,
} from 'apache-arrow';
import type { Schema as JsonSchema } from '../schemas/common.js';
import type { CsvTable } from '../shapes/shape.js';

/** How a column is typed: dates as date32, numbers float64, text utf8 (dictionary-encoded when values repeat). */
type Kind = 'date' | 'number' | 'text';

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;
const MS_PER_DAY = 86_400_000;

/** The schema of one row of a shape: `data`'s items, its map's values (or their items), or `data` itself. */
export function rowSchemaOf(shape: JsonSchema): Record<string, JsonSchema> {
  let node = (shape.properties as Record<string, JsonSchema> | undefined)?.data;
  for (let depth = 0; node !== undefined && depth < 3 && node.properties === undefined; depth++)
    node = (node.items ?? node.additionalProperties) as JsonSchema | undefined;
  return (node?.properties as Record<string, JsonSchema> | undefined) ?? {};
}

/** A column's kind: from the row schema when it names the column, else from its values (series keys are numbers). */
function kindOf(schema: JsonSchema | undefined, cells: readonly unknown[]): Kind {
  const type = schema?.type;
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('number') || types.includes('integer')) return 'number';
  if (types.includes('string')) return schema?.format === 'date' ? 'date' : 'text';
  const present = cells.filter((c) => c !== null && c !== undefined);
  if (present.length > 0 && present.every((c) => typeof c === 'number')) return 'number';
  if (present.length > 0 && present.every((c) => typeof c === 'string' && DATE_TEXT.test(c))) return 'date';
  return present.length === 0 ? 'number' : 'text';
}

/** Day number of `YYYY-MM-DD` (Date.parse reads it as UTC midnight). */
const dayOf = (text: string): number => Date.parse(text) / MS_PER_DAY;

/** Column `c` as an Arrow vector; null and undefined cells are Arrow nulls. A dictionary's id is its column's position, so the same answer is the same bytes. */
function columnOf(kind: Kind, cells: readonly unknown[], c: number): Vector {
  const n = cells.length;
  if (kind === 'number')
    return makeVector(float64Data(Float64Array.from(cells, (x) => (typeof x === 'number' ? x + 0 : Number.NaN))));
  if (kind === 'date') {
    const values = new Int32Array(n);
    const valid = validity(cells);
    for (let i = 0; i < n; i++) values[i] = typeof cells[i] === 'string' ? dayOf(cells[i] as string) : 0;
    return makeVector(
      makeData({ type: new DateDay(), length: n, nullCount: valid.nulls, nullBitmap: valid.bitmap, data: values }),
    );
  }
  const texts = cells.map((c) => (c === null || c === undefined ? null : String(c)));
  const distinct = new Set(texts).size;
  return distinct < n
    ? vectorFromArray(texts, new Dictionary(new Utf8(), new Int32(), c))
    : vectorFromArray(texts, new Utf8());
}

/** A float64 column of an answer's cells, NaN as Arrow nulls: a validity bitmap only when there is one. */
function float64Data(values: Float64Array) {
  let nulls = 0;
  for (let i = 0; i < values.length; i++) if (values[i] !== values[i]) nulls++;
  if (nulls === 0) return makeData({ type: new Float64(), length: values.length, nullCount: 0, data: values });
  const bitmap = new Uint8Array((values.length + 7) >> 3);
  for (let i = 0; i < values.length; i++) if (values[i] === values[i]) bitmap[i >> 3] |= 1 << (i & 7);
  return makeData({ type: new Float64(), length: values.length, nullCount: nulls, nullBitmap: bitmap, data: values });
}

/** The validity bitmap of `cells` (bit set: a value), or none when every cell holds one. */
function validity(cells: readonly unknown[]): { bitmap: Uint8Array | undefined; nulls: number } {
  let nulls = 0;
  const bitmap = new Uint8Array((cells.length + 7) >> 3);
  cells.forEach((c, i) => {
    if (c === null || c === undefined) nulls++;
    else bitmap[i >> 3] |= 1 << (i & 7);
  });
  return { bitmap: nulls > 0 ? bitmap : undefined, nulls };
}

/** The answer's scalars (market, total, count, …) as schema metadata: text as it is, anything else as JSON. */
export function scalarMetadata(value: Record<string, unknown>): Map<string, string> {
  const metadata = new Map<string, string>();
  for (const [key, v] of Object.entries(value)) {
    if (key === 'data') continue;
    metadata.set(key, typeof v === 'string' ? v : JSON.stringify(v));
  }
  return metadata;
}

/**
 * The table's rows as an Arrow IPC stream of one record batch: each column typed by
 * `rowSchema` (or its values), in the table's column order, with `metadata` on the schema.
 */
export function arrowOf(
  table: CsvTable,
  rowSchema: Record<string, JsonSchema>,
  metadata: Map<string, string>,
): Uint8Array {
  const rows = Array.from(table.rows);
  const vectors = table.columns.map((name, c) => {
    const cells = rows.map((row) => row[c]);
    return columnOf(kindOf(rowSchema[name], cells), cells, c);
  });
  const fields = table.columns.map((name, c) => new Field(name, vectors[c].type as DataType, true));
  const schema = new Schema(fields, metadata);
  const data = makeData({
    type: new Struct(fields),
    length: rows.length,
    nullCount: 0,
    children: vectors.map((v) => v.data[0]),
  });
  return tableToIPC(new Table(schema, new RecordBatch(schema, data)), 'stream');
}
