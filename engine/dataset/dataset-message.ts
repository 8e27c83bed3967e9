// A Dataset as it crosses to another thread: its columns are shared memory (posted, never
// copied); only the symbol index is rebuilt on the other side.

import { MARKETS, type Market } from '../markets.js';
import type { Dataset, MarketData } from './dataset.js';
import { SymbolIndex, type SymbolLabels } from './symbol-index.js';

type PostedMarket = Omit<MarketData, 'symbols'> & { codes: readonly string[]; labels: SymbolLabels };

/** What `postMessage` carries of a Dataset (structured clone shares every SharedArrayBuffer). */
export interface DatasetMessage {
  readonly version: string;
  readonly manifest: Dataset['manifest'];
  readonly markets: Record<Market, PostedMarket>;
  readonly macro: Dataset['macro'];
  readonly hasMacro: boolean;
}

/** Where a column that is not shared memory was found (it would be copied per thread). */
export class NotShared extends Error {}

/** Throws NotShared naming the first non-empty typed array under `value` whose memory is not shared. */
function assertShared(value: unknown, path: string): void {
  if (value === null || typeof value !== 'object') return;
  if (ArrayBuffer.isView(value)) {
    if (value.byteLength > 0 && !(value.buffer instanceof SharedArrayBuffer)) throw new NotShared(`${path} is not in shared memory: each thread would hold a copy`);
    return;
  }
  for (const [key, inner] of Object.entries(value)) assertShared(inner, `${path}.${key}`);
}

/** The message of `dataset`; throws NotShared when a column would be copied rather than shared. */
export function datasetMessage(dataset: Dataset): DatasetMessage {
  const markets = {} as Record<Market, PostedMarket>;
  for (const m of MARKETS) {
    const { symbols, ...columns } = dataset.markets[m];
    assertShared(columns, `markets.${m}`);
    markets[m] = { ...columns, codes: symbols.codes, labels: symbols.labels };
  }
  return { version: dataset.version, manifest: dataset.manifest, markets, macro: dataset.macro, hasMacro: dataset.hasMacro };
}

/** The Dataset a message carries, over the same shared columns. */
export function datasetFromMessage(message: DatasetMessage): Dataset {
  const markets = {} as Record<Market, MarketData>;
  for (const m of MARKETS) {
    const { codes, labels, ...columns } = message.markets[m];
    markets[m] = { ...columns, symbols: new SymbolIndex(codes, labels) };
  }
  return { version: message.version, manifest: message.manifest, markets, macro: message.macro, hasMacro: message.hasMacro };
}
