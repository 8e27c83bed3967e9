// A snapshot file's text in chunks: plain or gzip, hashed as stored, decoded as UTF-8.

import { createHash, type Hash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';

const CHUNK_BYTES = 1 << 20;

async function* hashedBytes(path: string, hash: Hash): AsyncGenerator<Buffer> {
  for await (const chunk of createReadStream(path, { highWaterMark: CHUNK_BYTES })) {
    hash.update(chunk as Buffer);
    yield chunk as Buffer;
  }
}

/** The file's text, decoded as UTF-8 in chunks (gunzipped first for `.gz`). */
export async function* textChunks(path: string, hash: Hash = createHash('sha256')): AsyncGenerator<string> {
  const raw = Readable.from(hashedBytes(path, hash));
  const source = path.endsWith('.gz') ? raw.pipe(createGunzip({ chunkSize: CHUNK_BYTES })) : raw;
  const decoder = new StringDecoder('utf8');
  for await (const chunk of source) {
    const text = decoder.write(chunk as Buffer);
    if (text.length > 0) yield text;
  }
  const rest = decoder.end();
  if (rest.length > 0) yield rest;
}
