// An Arrow IPC record batch message written by hand into a ByteWriter: an export's columns are
// typed arrays already, so a batch is its message header (a small FlatBuffer of Message.fbs)
// and their bytes, with no apache-arrow objects and no buffer of its own per batch.

import {
  makeData,
  makeVector,
  RecordBatch,
  type Schema,
  Struct,
  Table,
  tableToIPC,
  vectorFromArray,
} from 'apache-arrow';
import { Builder } from 'flatbuffers';
import type { ByteWriter } from './byte-writer.js';

/** One column of a record batch, in the schema's order. */
export type BatchColumn =
  /** utf8: the same text in every row (an export batch's symbol). */
  | { kind: 'repeated-text'; text: string }
  /** date32 (days since the epoch), no nulls. */
  | { kind: 'int32'; values: Int32Array }
  /** float64, NaN written as null (a validity bitmap when there is one). */
  | { kind: 'float64'; values: Float64Array };

/** Message.fbs: MetadataVersion V5, MessageHeader RecordBatch. */
const METADATA_V5 = 4;
const HEADER_RECORD_BATCH = 3;
const CONTINUATION = 0xffffffff;

/** A stream's end: a continuation marker and a zero length. */
export const END_OF_STREAM = Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

/**
 * The schema message a stream of `schema` begins with, made once by apache-arrow (the first
 * message of its stream of an empty table); `writeRecordBatch` writes the batches after it.
 */
export function schemaMessage(schema: Schema): Buffer {
  const empty = schema.fields.map((f) => makeVector(vectorFromArray([], f.type)).data[0]);
  const batch = new RecordBatch(
    schema,
    makeData({ type: new Struct(schema.fields), length: 0, nullCount: 0, children: empty }),
  );
  const stream = tableToIPC(new Table(schema, batch), 'stream');
  const bytes = Buffer.from(stream.buffer, stream.byteOffset, stream.byteLength);
  // The first message: its continuation marker, its length, then that many bytes (padded to 8).
  return bytes.subarray(0, 8 + bytes.readInt32LE(4));
}

/** Reused between batches (clear() keeps its memory). */
const builder = new Builder(1024);

/** A buffer of the body: where it starts (from the body's start) and its length before padding. */
interface BodyBuffer {
  offset: number;
  length: number;
}

/**
 * Appends one record batch of `length` rows to `w`: the continuation marker, the metadata
 * length, the Message (RecordBatch header: a field node per column, its buffers' offsets and
 * lengths), then the body, every buffer padded to 8 bytes.
 */
export function writeRecordBatch(w: ByteWriter, given: readonly BatchColumn[], length: number): void {
  const columns = given.map((c) => rowsOf(c, length));
  const nodes: { nulls: number }[] = [];
  const buffers: BodyBuffer[] = [];
  let bodyLength = 0;
  const add = (bytes: number): void => {
    buffers.push({ offset: bodyLength, length: bytes });
    bodyLength += (bytes + 7) & ~7;
  };
  for (const c of columns) {
    if (c.kind === 'repeated-text') {
      nodes.push({ nulls: 0 });
      add(0); // validity: none
      add(4 * (length + 1)); // offsets
      add(Buffer.byteLength(c.text) * length); // data
    } else if (c.kind === 'int32') {
      nodes.push({ nulls: 0 });
      add(0);
      add(4 * length);
    } else {
      const nulls = nullsOf(c.values);
      nodes.push({ nulls });
      add(nulls === 0 ? 0 : (length + 7) >> 3);
      add(8 * length);
    }
  }
  const metadata = message(length, nodes, buffers, bodyLength);
  // The prefix and the metadata end on an 8-byte boundary: the length counts the padding.
  const padded = (metadata.length + 7) & ~7;
  w.ensure(8 + padded + bodyLength);
  w.buf.writeUInt32LE(CONTINUATION, w.pos);
  w.buf.writeInt32LE(padded, w.pos + 4);
  w.pos += 8;
  w.bytes(metadata);
  w.pad8();
  const body = w.pos;
  for (let k = 0; k < columns.length; k++) {
    const c = columns[k];
    if (c.kind === 'repeated-text') {
      const text = Buffer.from(c.text);
      for (let i = 0; i <= length; i++) w.buf.writeInt32LE(i * text.length, w.pos + 4 * i);
      w.pos += 4 * (length + 1);
      w.pad8(body);
      for (let i = 0; i < length; i++) w.bytes(text);
      w.pad8(body);
    } else if (c.kind === 'int32') {
      w.bytes(new Uint8Array(c.values.buffer, c.values.byteOffset, c.values.byteLength));
      w.pad8(body);
    } else {
      const { values } = c;
      if (nodes[k].nulls > 0) {
        const start = w.pos;
        const bytes = (length + 7) >> 3;
        w.buf.fill(0, start, start + bytes);
        for (let i = 0; i < length; i++) if (values[i] === values[i]) w.buf[start + (i >> 3)] |= 1 << (i & 7);
        w.pos += bytes;
        w.pad8(body);
      }
      w.bytes(new Uint8Array(values.buffer, values.byteOffset, values.byteLength));
      w.pad8(body);
    }
  }
}

/** A column's first `length` rows (a typed array may hold more); fewer is a bug of the caller. */
function rowsOf(c: BatchColumn, length: number): BatchColumn {
  if (c.kind === 'repeated-text') return c;
  if (c.values.length < length) throw new RangeError(`a column of ${c.values.length} rows in a batch of ${length}`);
  return c.kind === 'int32'
    ? { kind: 'int32', values: c.values.subarray(0, length) }
    : { kind: 'float64', values: c.values.subarray(0, length) };
}

function nullsOf(values: Float64Array): number {
  let nulls = 0;
  for (let i = 0; i < values.length; i++) if (values[i] !== values[i]) nulls++;
  return nulls;
}

/** The Message FlatBuffer of a record batch (Message.fbs, Schema.fbs's FieldNode and Buffer structs). */
function message(length: number, nodes: readonly { nulls: number }[], buffers: readonly BodyBuffer[], body: number) {
  const b = builder;
  b.clear();
  // Vectors of structs are written back to front, each struct's fields last to first.
  b.startVector(16, nodes.length, 8);
  for (let i = nodes.length - 1; i >= 0; i--) {
    b.prep(8, 16);
    b.writeInt64(BigInt(nodes[i].nulls));
    b.writeInt64(BigInt(length));
  }
  const nodeVector = b.endVector();
  b.startVector(16, buffers.length, 8);
  for (let i = buffers.length - 1; i >= 0; i--) {
    b.prep(8, 16);
    b.writeInt64(BigInt(buffers[i].length));
    b.writeInt64(BigInt(buffers[i].offset));
  }
  const bufferVector = b.endVector();
  b.startObject(5); // RecordBatch: length, nodes, buffers, compression, variadicBufferCounts
  b.addFieldInt64(0, BigInt(length), 0n);
  b.addFieldOffset(1, nodeVector, 0);
  b.addFieldOffset(2, bufferVector, 0);
  const batch = b.endObject();
  b.startObject(5); // Message: version, header_type, header, bodyLength, custom_metadata
  b.addFieldInt16(0, METADATA_V5, 0);
  b.addFieldInt8(1, HEADER_RECORD_BATCH, 0);
  b.addFieldOffset(2, batch, 0);
  b.addFieldInt64(3, BigInt(body), 0n);
  b.finish(b.endObject());
  return b.asUint8Array();
}
