// An Arrow IPC stream's messages written by hand into a ByteWriter: the schema, dictionary
// batches and record batches are small FlatBuffers of Message.fbs and Schema.fbs followed by the
// columns' own bytes, with no apache-arrow objects; every message is written in place.

import { Builder } from 'flatbuffers';
import type { ByteWriter } from './byte-writer.js';

/** A field of a schema: every one nullable; text may be dictionary-encoded (int32 indices, its id given). */
export interface SchemaField {
  name: string;
  type: 'float64' | 'date32' | 'utf8';
  /** The dictionary id of a dictionary-encoded utf8 field (its indices are an `int32` column), else null. */
  dictionary: number | null;
}

/** A schema field of `name`; `dictionary`: the id of a dictionary-encoded utf8 field. */
export const schemaField = (
  name: string,
  type: SchemaField['type'],
  dictionary: number | null = null,
): SchemaField => ({
  name,
  type,
  dictionary,
});

/** One column of a record batch, in the schema's order. */
export type BatchColumn =
  /** utf8: the same text in every row (an export batch's symbol). */
  | { kind: 'repeated-text'; text: string }
  /** utf8, null as null. */
  | { kind: 'utf8'; texts: readonly (string | null)[] }
  /** int32 (date32's days, a dictionary's indices); `valid`: the validity bitmap, or null when no cell is null. */
  | { kind: 'int32'; values: Int32Array; valid?: Uint8Array | null }
  /** float64, NaN written as null (a validity bitmap when there is one). */
  | { kind: 'float64'; values: Float64Array };

/** Message.fbs: MetadataVersion V5; MessageHeader Schema, DictionaryBatch, RecordBatch. */
const METADATA_V5 = 4;
const HEADER_SCHEMA = 1;
const HEADER_DICTIONARY_BATCH = 2;
const HEADER_RECORD_BATCH = 3;
/** Schema.fbs: Type union members, FloatingPoint DOUBLE, DateUnit DAY. */
const TYPE_FLOATING_POINT = 3;
const TYPE_UTF8 = 5;
const TYPE_DATE = 8;
const PRECISION_DOUBLE = 2;
const DATE_UNIT_DAY = 0;
const CONTINUATION = 0xffffffff;

/** A stream's end: a continuation marker and a zero length. */
export const END_OF_STREAM = Buffer.from([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

/** Reused between messages (clear() keeps its memory). */
const builder = new Builder(1024);

/** Appends the schema message a stream begins with: `fields` in order, `metadata` as the schema's key-value pairs. */
export function writeSchema(
  w: ByteWriter,
  fields: readonly SchemaField[],
  metadata: ReadonlyMap<string, string>,
): void {
  const b = builder;
  b.clear();
  const fieldOffsets = fields.map((f) => fieldTable(b, f));
  const pairs = [...metadata].map(([key, value]) => {
    const k = b.createString(key);
    const v = b.createString(value);
    b.startObject(2); // KeyValue: key, value
    b.addFieldOffset(0, k, 0);
    b.addFieldOffset(1, v, 0);
    return b.endObject();
  });
  const fieldVector = offsetVector(b, fieldOffsets);
  const metadataVector = offsetVector(b, pairs);
  b.startObject(4); // Schema: endianness (Little, the default), fields, custom_metadata, features
  b.addFieldOffset(1, fieldVector, 0);
  b.addFieldOffset(2, metadataVector, 0);
  const schema = b.endObject();
  finishMessage(b, HEADER_SCHEMA, schema, 0);
  writeMetadata(w, b.asUint8Array());
}

/** A Field table: name, nullable, its type, its dictionary encoding if any, no children. */
function fieldTable(b: Builder, f: SchemaField): number {
  const name = b.createString(f.name);
  b.startObject(1); // FloatingPoint: precision; Date: unit; Utf8: no fields
  if (f.type === 'float64') b.addFieldInt16(0, PRECISION_DOUBLE, 0);
  else if (f.type === 'date32') b.addFieldInt16(0, DATE_UNIT_DAY, 1); // DateUnit's default is MILLISECOND
  const type = b.endObject();
  let dictionary = 0;
  if (f.dictionary !== null) {
    b.startObject(2); // Int: bitWidth, is_signed
    b.addFieldInt32(0, 32, 0);
    b.addFieldInt8(1, 1, 0);
    const index = b.endObject();
    b.startObject(4); // DictionaryEncoding: id, indexType, isOrdered, dictionaryKind
    b.addFieldInt64(0, BigInt(f.dictionary), 0n);
    b.addFieldOffset(1, index, 0);
    dictionary = b.endObject();
  }
  const children = offsetVector(b, []); // present though empty: Arrow C++ refuses a field without one
  b.startObject(7); // Field: name, nullable, type_type, type, dictionary, children, custom_metadata
  b.addFieldOffset(0, name, 0);
  b.addFieldInt8(1, 1, 0);
  b.addFieldInt8(2, f.type === 'float64' ? TYPE_FLOATING_POINT : f.type === 'date32' ? TYPE_DATE : TYPE_UTF8, 0);
  b.addFieldOffset(3, type, 0);
  if (dictionary !== 0) b.addFieldOffset(4, dictionary, 0);
  b.addFieldOffset(5, children, 0);
  return b.endObject();
}

/** Appends one record batch of `length` rows to `w`. */
export function writeRecordBatch(w: ByteWriter, columns: readonly BatchColumn[], length: number): void {
  writeBatch(w, columns, length, null);
}

/** Appends the dictionary batch of dictionary `id`: its values, in index order. */
export function writeDictionaryBatch(w: ByteWriter, id: number, values: readonly string[]): void {
  writeBatch(w, [{ kind: 'utf8', texts: values }], values.length, id);
}

/** A buffer of the body: where it starts (from the body's start) and its length before padding. */
interface BodyBuffer {
  offset: number;
  length: number;
}

/**
 * One batch message: the continuation marker, the metadata length, the Message (a RecordBatch
 * header, or a DictionaryBatch around one when `dictionary` is an id: a field node per column,
 * its buffers' offsets and lengths), then the body, every buffer padded to 8 bytes.
 */
function writeBatch(w: ByteWriter, given: readonly BatchColumn[], length: number, dictionary: number | null): void {
  const columns = given.map((c) => rowsOf(c, length));
  const nodes: { nulls: number }[] = [];
  const buffers: BodyBuffer[] = [];
  const textBytes: Int32Array[] = []; // per utf8 column, each text's UTF-8 length
  let bodyLength = 0;
  const add = (bytes: number): void => {
    buffers.push({ offset: bodyLength, length: bytes });
    bodyLength += (bytes + 7) & ~7;
  };
  for (const c of columns) {
    const nulls = nullsOf(c);
    nodes.push({ nulls });
    add(nulls === 0 ? 0 : (length + 7) >> 3); // validity: none when no cell is null
    if (c.kind === 'repeated-text') {
      add(4 * (length + 1));
      add(Buffer.byteLength(c.text) * length);
    } else if (c.kind === 'utf8') {
      const sizes = Int32Array.from(c.texts, (t) => (t === null ? 0 : Buffer.byteLength(t)));
      textBytes.push(sizes);
      add(4 * (length + 1));
      add(sizes.reduce((n, s) => n + s, 0));
    } else add((c.kind === 'int32' ? 4 : 8) * length);
  }
  const metadata = batchMessage(length, nodes, buffers, bodyLength, dictionary);
  w.ensure(8 + metadata.length + 7 + bodyLength);
  writeMetadata(w, metadata);
  const body = w.pos;
  let texts = 0;
  for (let k = 0; k < columns.length; k++) {
    const c = columns[k];
    if (nodes[k].nulls > 0) writeValidity(w, c, length, body);
    if (c.kind === 'repeated-text') {
      const text = Buffer.from(c.text);
      for (let i = 0; i <= length; i++) w.buf.writeInt32LE(i * text.length, w.pos + 4 * i);
      w.pos += 4 * (length + 1);
      w.pad8(body);
      for (let i = 0; i < length; i++) w.bytes(text);
    } else if (c.kind === 'utf8') {
      const sizes = textBytes[texts++];
      let at = 0;
      for (let i = 0; i <= length; i++) w.buf.writeInt32LE(at, w.pos + 4 * i), (at += i < length ? sizes[i] : 0);
      w.pos += 4 * (length + 1);
      w.pad8(body);
      for (const t of c.texts) if (t !== null) w.pos += w.buf.write(t, w.pos, 'utf8');
    } else w.bytes(new Uint8Array(c.values.buffer, c.values.byteOffset, c.values.byteLength));
    w.pad8(body);
  }
}

/** A column's first `length` rows (a typed array may hold more); fewer is a bug of the caller. */
function rowsOf(c: BatchColumn, length: number): BatchColumn {
  if (c.kind === 'repeated-text') return c;
  const rows = c.kind === 'utf8' ? c.texts.length : c.values.length;
  if (rows < length) throw new RangeError(`a column of ${rows} rows in a batch of ${length}`);
  if (c.kind === 'utf8') return rows === length ? c : { kind: 'utf8', texts: c.texts.slice(0, length) };
  return c.kind === 'int32'
    ? { kind: 'int32', values: c.values.subarray(0, length), valid: c.valid ?? null }
    : { kind: 'float64', values: c.values.subarray(0, length) };
}

/** Whether row `i` of `c` holds a value. */
function present(c: BatchColumn, i: number): boolean {
  if (c.kind === 'float64') return c.values[i] === c.values[i];
  if (c.kind === 'utf8') return c.texts[i] !== null;
  if (c.kind === 'int32') return c.valid == null || (c.valid[i >> 3] & (1 << (i & 7))) !== 0;
  return true;
}

function nullsOf(c: BatchColumn): number {
  if (c.kind === 'repeated-text' || (c.kind === 'int32' && c.valid == null)) return 0;
  const n = c.kind === 'utf8' ? c.texts.length : c.values.length;
  let nulls = 0;
  for (let i = 0; i < n; i++) if (!present(c, i)) nulls++;
  return nulls;
}

/** The validity bitmap of `c` (bit set: a value), padded to 8 from the body's start. */
function writeValidity(w: ByteWriter, c: BatchColumn, length: number, body: number): void {
  const start = w.pos;
  const bytes = (length + 7) >> 3;
  w.buf.fill(0, start, start + bytes);
  for (let i = 0; i < length; i++) if (present(c, i)) w.buf[start + (i >> 3)] |= 1 << (i & 7);
  w.pos += bytes;
  w.pad8(body);
}

/** A vector of tables' offsets, written back to front. */
function offsetVector(b: Builder, offsets: readonly number[]): number {
  b.startVector(4, offsets.length, 4);
  for (let i = offsets.length - 1; i >= 0; i--) b.addOffset(offsets[i]);
  return b.endVector();
}

/** Ends the Message table around `header` and finishes the buffer. */
function finishMessage(b: Builder, type: number, header: number, body: number): void {
  b.startObject(5); // Message: version, header_type, header, bodyLength, custom_metadata
  b.addFieldInt16(0, METADATA_V5, 0);
  b.addFieldInt8(1, type, 0);
  b.addFieldOffset(2, header, 0);
  b.addFieldInt64(3, BigInt(body), 0n);
  b.finish(b.endObject());
}

/**
 * A message's metadata as the stream holds it: the continuation marker, its length, the
 * FlatBuffer, zero padding to 8 bytes from the message's start (the length counts the padding).
 */
function writeMetadata(w: ByteWriter, metadata: Uint8Array): void {
  const start = w.pos;
  const padded = (metadata.length + 7) & ~7;
  w.ensure(8);
  w.buf.writeUInt32LE(CONTINUATION, w.pos);
  w.buf.writeInt32LE(padded, w.pos + 4);
  w.pos += 8;
  w.bytes(metadata);
  w.pad8(start);
}

/** The Message FlatBuffer of a record batch, or of a dictionary batch holding one (Schema.fbs's FieldNode and Buffer structs). */
function batchMessage(
  length: number,
  nodes: readonly { nulls: number }[],
  buffers: readonly BodyBuffer[],
  body: number,
  dictionary: number | null,
) {
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
  let header = b.endObject();
  if (dictionary !== null) {
    b.startObject(3); // DictionaryBatch: id, data, isDelta
    b.addFieldInt64(0, BigInt(dictionary), 0n);
    b.addFieldOffset(1, header, 0);
    header = b.endObject();
  }
  finishMessage(b, dictionary === null ? HEADER_RECORD_BATCH : HEADER_DICTIONARY_BATCH, header, body);
  return b.asUint8Array();
}
