// Opens a stored edition in this thread: a Dataset whose columns are views of the parts' memory maps.

import { open, type RootDatabase } from 'lmdb';
import type { Dataset, MarketData } from '../../engine/dataset/dataset.js';
import type { FundamentalColumns, KlineColumns } from '../../engine/dataset/kline-columns.js';
import { groupMacro } from '../../engine/dataset/macro-series.js';
import { SymbolIndex } from '../../engine/dataset/symbol-index.js';
import { deriveSnapshots } from '../../engine/kernels/derive-snapshot.js';
import { MARKETS, type Market } from '../../engine/markets.js';
import { DamagedFile } from './damage.js';
import { readEditionMeta } from './edition-file.js';
import {
  DATA_DB,
  DATA_KEY,
  type EditionMeta,
  envFile,
  FORMAT,
  partDir,
  PART_MAP_BYTES,
  type PartMeta,
} from './layout.js';
import { unpackMarket } from './market-pack.js';
import { checkPartFile, packBytes } from './part-check.js';

/**
 * An edition open in this thread. Its Dataset's large columns are views of the parts' memory
 * maps: valid until `close`, after which reading one is a crash (not an exception), so close
 * only once nothing of this thread can still read the Dataset.
 */
export interface OpenEdition {
  readonly meta: EditionMeta;
  readonly dataset: Dataset;
  /** Bytes of columns read in place from a memory map, and copied into this thread (small markets). */
  readonly mappedBytes: number;
  readonly copiedBytes: number;
  close(): Promise<void>;
}

/** What a Dataset tells a pool worker so it can open the same edition itself (see pool-source.ts). */
export interface EditionRef {
  stateDir: string;
  version: string;
}

/** The module a kernel pool's workers import to open the editions their tasks name (KernelPool's `sourceModule`). */
export const POOL_SOURCE_MODULE = new URL('./pool-source.js', import.meta.url).href;

/** One market's part open in this thread: shared by every edition of this thread that names it. */
interface OpenPart {
  readonly env: RootDatabase;
  readonly meta: PartMeta;
  readonly market: MarketData;
  readonly mapped: boolean;
  readonly bytes: number;
  /** Editions of this thread using it: closed when the last lets go. */
  uses: number;
}

/**
 * The parts open in this thread, by folder. An edition whose market did not change names the
 * same part as the edition before it: that market's handle, views, copy and symbol index are
 * taken as they are, so a reload opens (and a thread holds) only what changed. The map also
 * holds each environment strongly: lmdb-js closes one its JavaScript object no longer reaches
 * (a finalizer), which would unmap columns a Dataset still views.
 */
const openParts = new Map<string, OpenPart>();

/** One market's part opened (or taken as already open here): its meta, and the market as the Dataset holds it. */
function acquirePart(dir: string): OpenPart {
  const open = openParts.get(dir);
  if (open !== undefined) {
    open.uses++;
    return open;
  }
  const part = openPart(dir);
  openParts.set(dir, part);
  return part;
}

/** Lets go of one use of the part at `dir`; the last closes its environment (its views must not be read after). */
async function releasePart(dir: string): Promise<void> {
  const part = openParts.get(dir);
  if (part === undefined || --part.uses > 0) return;
  openParts.delete(dir);
  await part.env.close();
}

/**
 * Opens the part at `dir` once its file's structure holds (a file cut short would be mapped past
 * its end: SIGBUS). What fails a check throws DamagedFile: the part counts as absent.
 */
function openPart(dir: string): OpenPart {
  checkPartFile(dir);
  const damaged = (reason: string): DamagedFile => new DamagedFile(envFile(dir), reason, dir);
  let env: RootDatabase;
  try {
    env = open({ path: envFile(dir), encoding: 'msgpack', readOnly: true, mapSize: PART_MAP_BYTES });
  } catch (error) {
    throw damaged(`LMDB cannot open it (${(error as Error).message})`);
  }
  try {
    let meta: PartMeta | undefined;
    let value: Uint8Array | undefined;
    try {
      meta = env.get('meta') as PartMeta | undefined;
      value =
        meta === undefined ? undefined : env.openDB({ name: DATA_DB, encoding: 'binary' }).getBinaryFast(DATA_KEY);
    } catch (error) {
      throw damaged(`LMDB cannot read it (${(error as Error).message})`);
    }
    if (meta === undefined || typeof meta !== 'object') throw damaged('holds no part meta');
    if (meta.format !== FORMAT)
      throw damaged(`stored in format ${String(meta.format)}; this version reads format ${FORMAT}`);
    if (value === undefined) throw damaged("the market's columns are missing");
    if (value.length !== packBytes(meta.index))
      throw damaged(`the market's columns are ${value.length} bytes; its index places ${packBytes(meta.index)}`);
    // A view of the map for a value of 16 MiB or more (read in place); else lmdb-js's reused buffer, copied now: the
    // value's bytes only (that buffer is 16 MiB, its own `length` property the value's; a bare slice() copied all 16).
    const mapped = (value.buffer as ArrayBuffer & { isSharedMap?: boolean }).isSharedMap === true;
    const bytes = mapped ? value : Uint8Array.prototype.slice.call(value, 0, value.length);
    const arrays = unpackMarket(bytes.buffer, bytes.byteOffset, meta.index, meta.fundamentalColumns, meta.snapshotSize);
    const market: MarketData = {
      market: meta.market,
      symbols: new SymbolIndex(meta.symbols, meta, meta.market),
      ...arrays,
      firstDate: meta.firstDate,
      lastDate: meta.lastDate,
    };
    return { env, meta, market, mapped, bytes: value.length, uses: 1 };
  } catch (error) {
    void env.close();
    // A meta that decodes to something else than a part's (a damaged page) fails in the reading of it.
    throw error instanceof DamagedFile ? error : damaged(`its content cannot be read (${(error as Error).message})`);
  }
}

/**
 * Runs `use` with the part at `dir` open in this thread (its meta and its market read in place),
 * then lets it go: what `use` returns must not hold views of the part's columns.
 */
export async function withPart<T>(
  dir: string,
  use: (meta: PartMeta, market: MarketData) => Promise<T> | T,
): Promise<T> {
  const part = acquirePart(dir);
  try {
    return await use(part.meta, part.market);
  } finally {
    await releasePart(dir);
  }
}

function emptyMarket(market: Market): MarketData {
  const klines = { offsets: new Int32Array(1), date: new Int32Array(0) } as KlineColumns;
  for (const name of ['open', 'high', 'low', 'close', 'volume', 'amount', 'adj_factor'] as const)
    klines[name] = new Float64Array(0);
  const fundamentals: FundamentalColumns = { offsets: new Int32Array(1), date: new Int32Array(0), columns: {} };
  return {
    market,
    symbols: new SymbolIndex([], { names: [], marketNames: [], marketTypes: [] }),
    klines,
    fundamentals,
    snapshots: deriveSnapshots(market, klines, fundamentals),
    tradingDays: new Int32Array(0),
    firstDate: null,
    lastDate: null,
  };
}

/**
 * Opens edition `version` of `stateDir` in this thread (each thread opens its own handles; parts
 * already open here are shared). An edition.json or a part that fails its checks throws DamagedFile.
 */
export function openEdition(stateDir: string, version: string): OpenEdition {
  const meta = readEditionMeta(stateDir, version);
  const dirs: string[] = [];
  let mappedBytes = 0;
  let copiedBytes = 0;
  const markets = {} as Record<Market, MarketData>;
  try {
    for (const market of MARKETS) markets[market] = emptyMarket(market);
    for (const { market, part } of meta.markets) {
      const dir = partDir(stateDir, part);
      const opened = acquirePart(dir);
      dirs.push(dir);
      if (opened.mapped) mappedBytes += opened.bytes;
      else copiedBytes += opened.bytes;
      if (opened.meta.market !== market)
        throw new DamagedFile(envFile(dir), `holds ${opened.meta.market}, not ${market}`, dir);
      markets[market] = opened.market;
    }
  } catch (error) {
    for (const dir of dirs) void releasePart(dir);
    throw error;
  }
  const ref: EditionRef = { stateDir, version };
  const dataset: Dataset = {
    version: meta.version,
    manifest: meta.manifest,
    markets,
    macro: groupMacro(meta.macro),
    hasMacro: meta.macro.length > 0,
    lineage: Object.fromEntries(meta.markets.map((m) => [m.market, { id: m.part, appendsTo: m.appendsTo ?? null }])),
    origin: { key: `${stateDir}\n${version}`, ref },
  };
  let closed: Promise<void> | null = null;
  return {
    meta,
    dataset,
    mappedBytes,
    copiedBytes,
    close: () => (closed ??= Promise.all(dirs.map(releasePart)).then(() => undefined)),
  };
}
