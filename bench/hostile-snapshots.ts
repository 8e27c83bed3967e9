// The large hostile snapshots the loader must refuse in bounded time and memory, written as streams.

import { createWriteStream } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';

const HEADER = 'symbol,date,open,high,low,close,volume,amount,adj_factor\n';
const ROW = 'sh600000,2024-01-02,10,11,9,10.5,100,1050,1\n';

/** `total` bytes of `unit` repeated, in 1 MiB pieces. */
async function* repeated(unit: string, total: number): AsyncGenerator<Buffer> {
  const piece = Buffer.from(unit.repeat(Math.ceil((1 << 20) / unit.length)));
  for (let written = 0; written < total; written += piece.length)
    yield piece.subarray(0, Math.min(piece.length, total - written));
}

export interface HostileCase {
  name: string;
  folder: string;
  /** What the loader must answer: the start of its rejection. */
  expect: RegExp;
}

/** Writes the cases under `root`: a gzip of one row repeated to `expandedBytes`, and a header plus one unterminated line of `lineBytes`. */
export async function writeHostileSnapshots(
  root: string,
  expandedBytes: number,
  lineBytes: number,
): Promise<HostileCase[]> {
  const gzip = join(root, 'gzip-bomb');
  await mkdir(join(gzip, 'ashare'), { recursive: true });
  async function* bomb(): AsyncGenerator<Buffer> {
    yield Buffer.from(HEADER);
    yield* repeated(ROW, expandedBytes);
  }
  await pipeline(bomb(), createGzip({ level: 9 }), createWriteStream(join(gzip, 'ashare/klines.csv.gz')));

  const line = join(root, 'long-line');
  await mkdir(join(line, 'etfs'), { recursive: true });
  async function* long(): AsyncGenerator<Buffer> {
    yield Buffer.from(HEADER);
    yield* repeated('x', lineBytes);
  }
  await pipeline(long(), createWriteStream(join(line, 'etfs/klines.csv')));
  await writeFile(join(line, 'manifest.json'), '{"id":"long-line"}');
  return [
    {
      name: `gzip of one row to ${(expandedBytes / 2 ** 30).toFixed(1)} GiB`,
      folder: gzip,
      expect: /ashare\/klines\.csv\.gz: expands to more than|ashare\/klines\.csv\.gz:3: duplicate/,
    },
    {
      name: `one ${(lineBytes / 2 ** 20).toFixed(0)} MiB line`,
      folder: line,
      expect: /etfs\/klines\.csv:2: line longer than/,
    },
  ];
}
