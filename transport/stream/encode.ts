// A server message as its frame: JSON text, or (`?format=msgpack`) a msgpack binary frame holding the value the JSON frame would.

import { Packr } from 'msgpackr';
import type { StreamFormat } from './protocol.js';

/** Plain msgpack maps and arrays (no record extension), as the REST answers' msgpack. */
const packr = new Packr({ useRecords: false, variableMapSize: true });

/** A frame's payload: text for JSON (a text frame), bytes for msgpack (a binary frame). */
export type Frame = string | Buffer;

/** `value` (a plain object, `type` first) as a frame of `format`. The bytes stay valid (no reused buffer). */
export const encoded = (format: StreamFormat, value: object): Frame =>
  format === 'json' ? JSON.stringify(value) : packr.pack(value);

/** A frame's byte length. */
export const frameBytes = (frame: Frame): number =>
  typeof frame === 'string' ? Buffer.byteLength(frame) : frame.length;

/** One part of a message encoded once and shared by many frames (a screen's page): its JSON text and its msgpack bytes, made on first use. */
export class SharedPart {
  private json: string | null = null;
  private packed: Buffer | null = null;

  constructor(private readonly value: unknown) {}

  as(format: StreamFormat): Frame {
    return format === 'json' ? (this.json ??= JSON.stringify(this.value)) : (this.packed ??= packr.pack(this.value));
  }
}

const MSGPACK_DATA_KEY = Buffer.from(packr.pack('data')); // a copy: kept for the life of the process

/**
 * `head` (a plain object of at most 14 fields, `type` first) with one more field, `data`, last:
 * the shared part spliced in as it is encoded already, so a page sent under several names
 * (screen ids) is serialised once. The frame equals `encoded(format, {...head, data})`.
 */
export function withData(format: StreamFormat, head: Record<string, unknown>, data: SharedPart): Frame {
  if (format === 'json') return `${JSON.stringify(head).slice(0, -1)},"data":${data.as('json')}}`;
  const packedHead = packr.pack(head);
  // A map of n < 15 fields opens with the fixmap byte 0x80 | n: one field more is 0x80 | (n + 1).
  const first = packedHead[0];
  if ((first & 0xf0) !== 0x80 || (first & 0x0f) >= 15)
    throw new Error('withData: the head must be a map of < 15 fields');
  return Buffer.concat([
    Buffer.from([first + 1]),
    packedHead.subarray(1),
    MSGPACK_DATA_KEY,
    data.as('msgpack') as Buffer,
  ]);
}
