// Writes a validated snapshot into a fresh LMDB environment as binary column blocks.

import { mkdir, open as openFile } from 'node:fs/promises';
import { open } from 'lmdb';
import { KLINE_VALUE_COLUMNS } from '../../engine/dataset/kline-columns.js';
import type { ParsedSnapshot } from '../snapshot/parsed-snapshot.js';
import { envFile, FORMAT, fundamentalsKey, klineKey, type SnapshotMeta, type StoredMarketMeta } from './layout.js';

/**
 * The column's bytes as a Buffer. lmdb-js writes garbage from a Buffer over a
 * SharedArrayBuffer (measured: it ignores the view), so shared columns are copied first.
 */
function bytesOf(column: Float64Array | Int32Array): Buffer {
  const view = new Uint8Array(column.buffer, column.byteOffset, column.byteLength);
  return column.buffer instanceof SharedArrayBuffer ? Buffer.from(view) : Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

const countsOf = (offsets: Int32Array): number[] => Array.from({ length: offsets.length - 1 }, (_, i) => offsets[i + 1] - offsets[i]);

/** The meta record of `parsed` as it will be stored. */
export function describe(parsed: ParsedSnapshot, version: string, fingerprint: string, source: string): SnapshotMeta {
  const markets: StoredMarketMeta[] = parsed.markets.map((m) => ({
    market: m.market,
    symbols: m.symbols,
    names: m.names,
    marketNames: m.marketNames,
    marketTypes: m.marketTypes,
    klineRows: countsOf(m.klines.offsets),
    fundamentalRows: countsOf(m.fundamentals.offsets),
    fundamentalColumns: Object.keys(m.fundamentals.columns),
  }));
  return {
    format: FORMAT,
    version,
    manifest: parsed.manifest,
    contentHash: parsed.contentHash,
    fingerprint,
    source,
    storedAt: new Date().toISOString(),
    rows: parsed.rows,
    markets,
    macro: parsed.macro,
  };
}

/**
 * Writes every block and the meta record into a new environment at `dir` in one
 * transaction, then forces the file to disk: the caller renames `dir` into place only
 * after this resolves, so a crash never leaves a half snapshot under a version name.
 */
export async function writeSnapshotEnv(parsed: ParsedSnapshot, meta: SnapshotMeta, dir: string): Promise<void> {
  const rawBytes = parsed.rows * 60 + 64 * 1024 * 1024;
  // noSync: nothing reads this environment before the explicit fsync below.
  await mkdir(dir, { recursive: true });
  const env = open({ path: envFile(dir), encoding: 'msgpack', noSync: true, mapSize: Math.ceil(rawBytes * 1.5) });
  const blocks = env.openDB({ name: 'blocks', encoding: 'binary' });
  try {
    env.transactionSync(() => {
      for (const m of parsed.markets) {
        const { offsets } = m.klines;
        m.symbols.forEach((symbol, i) => {
          const from = offsets[i];
          const to = offsets[i + 1];
          blocks.putSync(klineKey(m.market, symbol, 'date'), bytesOf(m.klines.date.subarray(from, to)));
          for (const name of KLINE_VALUE_COLUMNS) blocks.putSync(klineKey(m.market, symbol, name), bytesOf(m.klines[name].subarray(from, to)));
        });
        blocks.putSync(fundamentalsKey(m.market, 'date'), bytesOf(m.fundamentals.date));
        for (const [name, values] of Object.entries(m.fundamentals.columns)) blocks.putSync(fundamentalsKey(m.market, name), bytesOf(values));
      }
      env.putSync('meta', meta);
    });
  } finally {
    await env.close();
  }
  const file = await openFile(envFile(dir), 'r+');
  try {
    await file.sync();
  } finally {
    await file.close();
  }
}
