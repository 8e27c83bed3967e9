// Where stored snapshots live under STATE_DIR and how one LMDB environment is laid out.

import { join } from 'node:path';
import type { Market } from '../../engine/markets.js';
import type { MacroPoint, Manifest } from '../snapshot/parsed-snapshot.js';

/**
 * Each stored snapshot is its own LMDB environment `<state>/snapshots/<version>/`, written
 * whole into a temporary folder and renamed into place, so a half-written or rejected
 * snapshot never replaces a good one and no environment is ever rewritten in place.
 * `<state>/snapshots/current.json` names the version to serve.
 */
export const snapshotsDir = (stateDir: string): string => join(stateDir, 'snapshots');
export const versionDir = (stateDir: string, version: string): string => join(snapshotsDir(stateDir), version);
/** The LMDB file inside a version folder (lmdb-js keeps `data.mdb-lock` beside it). */
export const envFile = (dir: string): string => join(dir, 'data.mdb');
export const currentPointer = (stateDir: string): string => join(snapshotsDir(stateDir), 'current.json');

/** Bumped when the stored layout changes; an environment of another format is re-read from its folder. */
export const FORMAT = 1;

/** Key of a K-line column block: one symbol's values of one column, little-endian. */
export const klineKey = (market: Market, symbol: string, column: string): [string, string, string, string] => ['k', market, symbol, column];
/** Key of a fundamentals column block: one market's rows of one column, sorted by (symbol, date). */
export const fundamentalsKey = (market: Market, column: string): [string, string, string] => ['f', market, column];

export interface StoredMarketMeta {
  market: Market;
  symbols: string[];
  names: (string | null)[];
  marketNames: (string | null)[];
  marketTypes: (string | null)[];
  /** K-line rows per symbol, in symbol order. */
  klineRows: number[];
  /** Fundamentals rows per symbol, in symbol order, and the columns stored. */
  fundamentalRows: number[];
  fundamentalColumns: string[];
}

/** Everything about a stored snapshot but its column blocks. */
export interface SnapshotMeta {
  format: number;
  /** The data version answered in `X-Data-Version`: `<manifest id>.<12 hex of the content hash>`. */
  version: string;
  manifest: Manifest;
  contentHash: string;
  /** Paths, sizes and mtimes of the source files: an unchanged folder is recognised without reading it. */
  fingerprint: string;
  /** Absolute path of the folder it was read from (what SIGHUP re-reads). */
  source: string;
  storedAt: string;
  rows: number;
  markets: StoredMarketMeta[];
  macro: MacroPoint[];
}

/** The content of current.json. */
export interface CurrentPointer {
  version: string;
  source: string;
  fingerprint: string;
}
