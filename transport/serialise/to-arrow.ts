// Renders the rows of an answer (its CSV table: the same columns as JSON's) as an Arrow IPC stream
// of one record batch (arrow-batch.ts): the format pandas, polars and DuckDB read without code.

import {
  type BatchColumn,
  END_OF_STREAM,
  type SchemaField,
  schemaField,
  writeDictionaryBatch,
  writeRecordBatch,
  writeSchema,
} from './arrow-batch.js';
import { INVALID_DATE, parseIsoDate } from '../../engine/calendar/days.js';
import { ByteWriter } from './byte-writer.js';
import type { Schema as JsonSchema } from '../schemas/common.js';
import type { CsvTable } from '../shapes/shape.js';

/** How a column is typed: dates as date32, numbers float64, text utf8 (dictionary-encoded when values repeat). */
type Kind = 'date' | 'number' | 'text';

const DATE_TEXT = /^\d{4}-\d{2}-\d{2}$/;

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

/** Day number of `YYYY-MM-DD` (the answers' dates are always a real day of that form: any other is a bug, thrown). */
function dayOf(t: string): number {
  const day = parseIsoDate(t);
  if (day === INVALID_DATE) throw new RangeError(`an Arrow date32 cell is not a YYYY-MM-DD day: ${JSON.stringify(t)}`);
  return day;
}

/** Reused by every answer: the stream is a view of it, sent, compressed or copied before the next (see render.ts). */
const writer = new ByteWriter(1 << 16);

/** A column as the stream holds it: its field, its record batch column, and a dictionary's values. */
interface ArrowColumn {
  field: SchemaField;
  column: BatchColumn;
  dictionary: string[] | null;
}

/** The validity bitmap of `cells` (bit set: a value), or null when none is null or undefined. */
function validityOf(cells: readonly unknown[]): Uint8Array | null {
  let valid: Uint8Array | null = null;
  for (let i = 0; i < cells.length; i++)
    if (cells[i] === null || cells[i] === undefined) {
      valid ??= new Uint8Array((cells.length + 7) >> 3).fill(0xff);
      valid[i >> 3] &= ~(1 << (i & 7));
    }
  return valid;
}

/**
 * Column `c` (named `name`) of `cells`: numbers as float64 (null as NaN), dates as date32, text
 * as utf8, or, when values repeat, int32 indices into a dictionary (its values first seen first)
 * whose id is the column's position, so the same answer is the same bytes.
 */
function columnOf(name: string, kind: Kind, cells: readonly unknown[], c: number): ArrowColumn {
  const n = cells.length;
  if (kind === 'number') {
    const values = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const x = cells[i];
      values[i] = typeof x === 'number' ? x + 0 : Number.NaN; // + 0: -0 is written as 0, as JSON writes it
    }
    return { field: schemaField(name, 'float64'), column: { kind: 'float64', values }, dictionary: null };
  }
  const valid = validityOf(cells);
  if (kind === 'date') {
    const days = new Int32Array(n);
    for (let i = 0; i < n; i++) if (cells[i] !== null && cells[i] !== undefined) days[i] = dayOf(String(cells[i]));
    return { field: schemaField(name, 'date32'), column: { kind: 'int32', values: days, valid }, dictionary: null };
  }
  const texts = cells.map((x) => (x === null || x === undefined ? null : String(x)));
  const index = new Map<string, number>();
  for (const t of texts) if (t !== null && !index.has(t)) index.set(t, index.size);
  // Every value distinct (a null counting as one value): plain utf8.
  if (index.size + (valid === null ? 0 : 1) === n)
    return { field: schemaField(name, 'utf8'), column: { kind: 'utf8', texts }, dictionary: null };
  const indices = new Int32Array(n);
  for (let i = 0; i < n; i++) if (texts[i] !== null) indices[i] = index.get(texts[i]!)!;
  const column: BatchColumn = { kind: 'int32', values: indices, valid };
  return { field: schemaField(name, 'utf8', c), column, dictionary: [...index.keys()] };
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
 * The table's rows as an Arrow IPC stream: its schema (each column typed by `rowSchema` or its
 * values, in the table's column order, `metadata` on it), a dictionary batch per dictionary
 * column, one record batch, the end.
 */
export function arrowOf(table: CsvTable, rowSchema: Record<string, JsonSchema>, metadata: Map<string, string>): Buffer {
  const rows = Array.from(table.rows);
  const columns = table.columns.map((name, c) => {
    const cells = rows.map((row) => row[c]);
    return columnOf(name, kindOf(rowSchema[name], cells), cells, c);
  });
  const w = writer;
  w.pos = 0;
  writeSchema(
    w,
    columns.map((c) => c.field),
    metadata,
  );
  for (const c of columns) if (c.dictionary !== null) writeDictionaryBatch(w, c.field.dictionary!, c.dictionary);
  writeRecordBatch(
    w,
    columns.map((c) => c.column),
    rows.length,
  );
  w.bytes(END_OF_STREAM);
  return w.buf.subarray(0, w.pos);
}
