// An export's bytes, made a chunk at a time as the socket takes them: CSV, NDJSON or an Arrow IPC
// stream (its schema message, then a record batch per symbol written in place by
// arrow-batch.ts), from one symbol's slice at a time, into one reused buffer.

import { dateText } from '../../engine/calendar/date-text.js';
import type { MarketData } from '../../engine/dataset/dataset.js';
import { type ExportQuery, exportSlice } from '../../engine/queries/export.js';
import type { KlineSlice } from '../../engine/queries/klines.js';
import { fieldNames } from './kline-json.js';
import type { ChunkSource } from '../route.js';
import { ByteWriter } from './byte-writer.js';
import {
  type BatchColumn,
  END_OF_STREAM,
  type SchemaField,
  schemaField,
  writeRecordBatch,
  writeSchema,
} from './arrow-batch.js';

export const EXPORT_FORMATS = ['csv', 'arrow', 'ndjson'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_TYPES: Readonly<Record<ExportFormat, string>> = {
  csv: 'text/csv; charset=utf-8',
  arrow: 'application/vnd.apache.arrow.stream',
  ndjson: 'application/x-ndjson',
};

/** A chunk is handed to the socket once it holds this much (or its symbol ends, for Arrow's record batches). */
const CHUNK_BYTES = 64 * 1024;
/** Arrow's end of stream: a continuation marker and a zero length. */
const NO_VALUES = new Float64Array(0);
const NO_DAYS = new Int32Array(0);

/** A text cell a spreadsheet would run as a formula gets a leading `'` (as every CSV answer does). */
const csvText = (text: string): string => (/^[=+\-@\t\r]/.test(text) ? `'${text}` : text);

/**
 * The bytes of one export, pulled chunk by chunk (`next`), one symbol's slice in memory at a
 * time: whatever the export's size, what it holds is one slice and one chunk.
 */
export class ExportStream implements ChunkSource {
  private readonly writer = new ByteWriter(CHUNK_BYTES * 2);
  private symbol = 0;
  private started = false;
  private ended = false;
  /** Rows in the chunks given so far. */
  rowsGiven = 0;
  private rowsWritten = 0;
  private readonly columns: string[];

  constructor(
    private readonly m: MarketData,
    private readonly q: ExportQuery,
    readonly format: ExportFormat,
    /** The answer's scalars (market, rows, fields, …): Arrow's schema metadata. */
    private readonly metadata: Map<string, string>,
  ) {
    this.columns = fieldNames(q.fields);
  }

  /**
   * The next chunk, or null once everything (and Arrow's end of stream) was given. A CSV or
   * NDJSON chunk is a view of the stream's one buffer, written over by the next call: uWS has
   * sent it or copied it by then (`write` takes what the socket does not), so an export makes
   * no garbage per chunk.
   */
  next(): Buffer | null {
    if (this.ended) return null;
    const w = this.writer;
    w.pos = 0;
    const arrow = this.format === 'arrow';
    if (!this.started) {
      this.started = true;
      if (this.format === 'csv') w.ascii(`${this.columns.join(',')}\r\n`);
      if (arrow) writeSchema(w, this.fields(), this.metadata);
    }
    while (this.symbol < this.q.symbols.length) {
      const i = this.q.symbols[this.symbol++];
      const slice = exportSlice(this.m, i, this.q);
      if (slice.count === 0) continue;
      if (arrow) writeRecordBatch(w, this.batchColumns(slice, this.m.symbols.codes[i]), slice.count), this.batches++;
      else this.textRows(slice, this.m.symbols.codes[i]);
      this.rowsWritten += slice.count;
      if (w.pos >= CHUNK_BYTES) return this.give();
    }
    this.ended = true;
    if (arrow) {
      if (this.batches === 0) writeRecordBatch(w, this.batchColumns(null, ''), 0); // a stream of no rows still has a batch
      w.bytes(END_OF_STREAM);
    }
    return w.pos > 0 ? this.give() : null;
  }

  /** The writer's bytes as the next chunk. */
  private give(): Buffer {
    this.rowsGiven = this.rowsWritten;
    return this.writer.buf.subarray(0, this.writer.pos);
  }

  /** CSV lines or NDJSON objects of one slice, into the writer. */
  private textRows(slice: KlineSlice, code: string): void {
    const w = this.writer;
    const { fields } = this.q;
    const values = fields.map((f) => slice.values[f]!);
    const csv = this.format === 'csv';
    const symbolCell = csv ? csvText(code) : `{"symbol":"${code}","date":"`; // codes are [A-Za-z0-9._-]
    const keys = fields.map((f) => `,"${f}":`);
    for (let r = 0; r < slice.count; r++) {
      w.ascii(symbolCell);
      if (csv) w.ascii(',');
      w.ascii(dateText(slice.date[r]));
      if (!csv) w.ascii('"');
      for (let f = 0; f < values.length; f++) {
        const x = values[f][r];
        if (csv) {
          w.ascii(',');
          if (x === x) w.number(x); // null: an empty cell
        } else {
          w.ascii(keys[f]);
          w.number(x); // NaN is written null
        }
      }
      w.ascii(csv ? ',' : ',"adj_factor":');
      w.number(slice.adjFactor[r]);
      w.ascii(csv ? '\r\n' : '}\n');
    }
  }

  /**
   * The columns of one symbol's record batch, read in place from the slice (`slice` null: a
   * batch of no rows): the symbol, the date, the fields, the factor.
   */
  private batchColumns(slice: KlineSlice | null, code: string): BatchColumn[] {
    const float64 = (values: Float64Array | undefined): BatchColumn => ({
      kind: 'float64',
      values: values ?? NO_VALUES,
    });
    return [
      { kind: 'repeated-text', text: code },
      { kind: 'int32', values: slice?.date ?? NO_DAYS },
      ...this.q.fields.map((f) => float64(slice?.values[f])),
      float64(slice?.adjFactor),
    ];
  }

  /** Record batches written so far (none: the stream still gets one of no rows). */
  private batches = 0;

  /**
   * The stream's schema fields: every one nullable, as in `format=arrow` answers; the symbol is plain
   * utf8 here (one symbol a record batch: a dictionary per batch would be a replacement each time).
   */
  private fields(): SchemaField[] {
    return [
      schemaField('symbol', 'utf8'),
      schemaField('date', 'date32'),
      ...this.q.fields.map((f) => schemaField(f, 'float64')),
      schemaField('adj_factor', 'float64'),
    ];
  }
}
