// The loader's bounds: line length, gzip expansion, duplicates found early, linear time, memory near the columns' bytes.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createGzip } from 'node:zlib';
import { DEFAULT_LOAD_LIMITS, type LoadLimits } from '../../loaders/snapshot/limits.js';
import { LineSplitter } from '../../loaders/snapshot/line-splitter.js';
import { readSnapshot } from '../../loaders/snapshot/read-snapshot.js';
import { SnapshotError } from '../../loaders/snapshot/snapshot-error.js';
import { csv, KLINE_HEADER, tempDir, writeSnapshotFolder } from '../helpers/snapshot-folder.js';

const run = promisify(execFile);

let root = '';
let cleanup: () => Promise<void> = async () => {};
let counter = 0;
before(async () => ({ path: root, cleanup } = await tempDir()));
after(() => cleanup());

const ROW = 'sh600000,2024-01-02,10,11,9,10.5,100,1050,1';

async function rejection(folder: string, limits: Partial<LoadLimits> = {}): Promise<string> {
  try {
    await readSnapshot(folder, { limits, threads: 0 });
  } catch (error) {
    assert.ok(error instanceof SnapshotError, `a SnapshotError, not ${String(error)}`);
    return error.message;
  }
  assert.fail('the snapshot was accepted but should have been rejected');
}

/** A folder whose ashare/klines.csv.gz is the gzip of the header, then `body` `times` times over, made as a stream. */
async function gzipFolder(body: string, times: number): Promise<string> {
  const dir = join(root, `gz${counter++}`);
  await mkdir(join(dir, 'ashare'), { recursive: true });
  const piece = Buffer.from(body.repeat(Math.max(1, Math.floor((1 << 20) / body.length))));
  const total = body.length * times;
  async function* content(): AsyncGenerator<Buffer> {
    yield Buffer.from(`${KLINE_HEADER}\n`);
    for (let written = 0; written < total; written += piece.length)
      yield piece.subarray(0, Math.min(piece.length, total - written));
  }
  await pipeline(content(), createGzip({ level: 9 }), createWriteStream(join(dir, 'ashare/klines.csv.gz')));
  return dir;
}

describe('line length', () => {
  test('a line over the limit is rejected at its line', async () => {
    const dir = await writeSnapshotFolder(join(root, `long${counter++}`), {
      'ashare/klines.csv': csv(KLINE_HEADER, ROW, `${ROW},${'x'.repeat(2000)}`),
    });
    assert.equal(await rejection(dir, { maxLineBytes: 1024 }), 'ashare/klines.csv:3: line longer than 1024 bytes');
  });

  test('the limit counts bytes, not characters', async () => {
    const name = '浦'.repeat(400); // 400 characters, 1,200 bytes
    const dir = await writeSnapshotFolder(join(root, `long${counter++}`), {
      'ashare/klines.csv': csv(KLINE_HEADER, ROW),
      'ashare/symbols.csv': csv('symbol,name', `sh600000,${name}`),
    });
    assert.equal(await rejection(dir, { maxLineBytes: 1024 }), 'ashare/symbols.csv:2: line longer than 1024 bytes');
  });

  test('the default limit (64 KiB) trips on a 1 MB unterminated last line', async () => {
    const dir = await writeSnapshotFolder(join(root, `long${counter++}`), {
      'ashare/klines.csv': `${KLINE_HEADER}\n${ROW}\nsh600000,${'9'.repeat(1_000_000)}`,
    });
    assert.equal(
      await rejection(dir),
      `ashare/klines.csv:3: line longer than ${DEFAULT_LOAD_LIMITS.maxLineBytes} bytes`,
    );
  });

  test('an endless line is refused at the limit, before the rest of it is read', async () => {
    // 8 MiB of one line in a gzip allowed to expand to 1 MiB: only reading it whole could meet the expansion bound first.
    const dir = await gzipFolder('a', 8 << 20);
    assert.equal(
      await rejection(dir, { maxLineBytes: 1024, expansionFloorBytes: 1 << 20 }),
      'ashare/klines.csv.gz:2: line longer than 1024 bytes',
    );
  });
});

describe('gzip expansion', () => {
  test('a .csv.gz expanding beyond the ratio and the floor is refused, naming both', async () => {
    const dir = await gzipFolder('\n', 8 << 20);
    const size = (await stat(join(dir, 'ashare/klines.csv.gz'))).size;
    const allowance = Math.max(1 << 20, 100 * size);
    assert.ok(allowance < 8 << 20, 'the file expands beyond its allowance');
    assert.equal(
      await rejection(dir, { expansionFloorBytes: 1 << 20 }),
      `ashare/klines.csv.gz: expands to more than ${allowance} bytes (100× its ${size}, at least 1048576)`,
    );
  });

  test('the default bound (100×, 64 MiB floor) trips on a gzip of 100 MiB of blank lines', async () => {
    const dir = await gzipFolder('\n', 100 << 20);
    const size = (await stat(join(dir, 'ashare/klines.csv.gz'))).size;
    assert.ok(size * 100 < 64 << 20, 'the file is small enough that the floor applies');
    assert.equal(
      await rejection(dir),
      `ashare/klines.csv.gz: expands to more than 67108864 bytes (100× its ${size}, at least 67108864)`,
    );
  });

  test('a gzip within the bound reads', async () => {
    const dir = await writeSnapshotFolder(join(root, `gz${counter++}`), {
      'ashare/klines.csv.gz': csv(KLINE_HEADER, ROW),
    });
    assert.equal((await readSnapshot(dir, { threads: 0 })).rows, 1);
  });
});

describe('duplicates', () => {
  test('a gzip of one repeated row is rejected at its second copy, as rows arrive', async () => {
    const dir = await gzipFolder(`${ROW}\n`, 200_000);
    assert.equal(
      await rejection(dir),
      'ashare/klines.csv.gz:3: duplicate row for sh600000 on 2024-01-02 (first at line 2)',
    );
  });

  test('a duplicate between unsorted rows is still found after sorting', async () => {
    const dir = await writeSnapshotFolder(join(root, `dup${counter++}`), {
      'ashare/klines.csv': csv(KLINE_HEADER, ROW, 'sh600000,2024-01-03,10,11,9,10.5,100,1050,1', ROW),
    });
    assert.equal(
      await rejection(dir),
      'ashare/klines.csv:4: duplicate row for sh600000 on 2024-01-02 (first at line 2)',
    );
  });
});

describe('time is linear in the input', () => {
  /** Milliseconds to split `lines` lines of `length` bytes fed one byte at a time (best of 3). */
  function splitByteByByte(length: number, lines: number): number {
    const bytes = Buffer.from(`${'x'.repeat(length)}\n`.repeat(lines));
    let best = Infinity;
    for (let round = 0; round < 3; round++) {
      let seen = 0;
      const splitter = new LineSplitter(64 * 1024, () => seen++);
      const started = performance.now();
      for (let i = 0; i < bytes.length; i++) splitter.push(bytes.subarray(i, i + 1));
      splitter.end();
      best = Math.min(best, performance.now() - started);
      assert.equal(seen, lines);
    }
    return best;
  }

  test('a line arriving in 1-byte pieces costs in proportion to its length (no re-scanning)', (t) => {
    const short = splitByteByByte(16_000, 8);
    const long = splitByteByByte(64_000, 8); // 4× the bytes; a quadratic splitter would take 16×
    t.diagnostic(`4× the bytes: ${(long / short).toFixed(1)}× the time`);
    assert.ok(
      long < short * 8,
      `4× the bytes took ${(long / short).toFixed(1)}× the time (${short.toFixed(0)} ms, ${long.toFixed(0)} ms)`,
    );
  });
});

describe('memory', () => {
  const CHILD = `
    const { readSnapshot } = await import(${JSON.stringify(fileURLToPath(new URL('../../loaders/snapshot/read-snapshot.js', import.meta.url)))});
    const base = process.memoryUsage().rss;
    const parsed = await readSnapshot(process.argv[1], { threads: 0 });
    const m = parsed.markets[0];
    const columns = m.klines.date.byteLength + m.klines.offsets.byteLength + 7 * m.klines.close.byteLength;
    console.log(JSON.stringify({ rows: parsed.rows, columns, peak: process.resourceUsage().maxRSS * 1024 - base }));`;

  /** K-lines of `symbols` × 500 days, symbols interleaved (every row out of order), read in a child process. */
  async function peakOf(symbols: number): Promise<{ rows: number; columns: number; peak: number }> {
    const lines = [KLINE_HEADER];
    for (let day = 0; day < 500; day++) {
      const date = new Date(Date.UTC(2020, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
      for (let s = symbols - 1; s >= 0; s--)
        lines.push(`sz${String(s).padStart(6, '0')},${date},10.01,11.02,9.03,10.54,1234567,12345678.9,1.0123`);
    }
    const dir = await writeSnapshotFolder(join(root, `mem${counter++}`), {
      'ashare/klines.csv': `${lines.join('\n')}\n`,
    });
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', CHILD, dir]);
    return JSON.parse(stdout);
  }

  test('peak memory grows with the stored columns by well under 2× their bytes', async (t) => {
    const small = await peakOf(200);
    const large = await peakOf(1000);
    assert.equal(large.rows, 500_000);
    const growth = (large.peak - small.peak) / (large.columns - small.columns);
    t.diagnostic(
      `peak over start: ${(small.peak / 2 ** 20).toFixed(0)} MiB for ${(small.columns / 2 ** 20).toFixed(0)} MiB of columns, ${(large.peak / 2 ** 20).toFixed(0)} MiB for ${(large.columns / 2 ** 20).toFixed(0)} MiB: ${growth.toFixed(2)}× per column byte`,
    );
    // The sort gathers each column through one scratch column (8 bytes a row) before copying it
    // back: following the permutation in place would spare it but costs 20× the time on real files.
    assert.ok(
      growth < 1.9,
      `peak grew ${growth.toFixed(2)}× the column bytes (${(small.peak / 2 ** 20).toFixed(0)} → ${(large.peak / 2 ** 20).toFixed(0)} MiB)`,
    );
    assert.ok(
      large.peak < 2 * large.columns + 128 * 2 ** 20,
      `peak ${(large.peak / 2 ** 20).toFixed(0)} MiB for ${(large.columns / 2 ** 20).toFixed(0)} MiB of columns`,
    );
  });
});
