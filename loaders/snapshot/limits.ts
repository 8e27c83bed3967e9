// The resource bounds of reading a snapshot folder: declared once, injectable for tests.

/** Bounds that keep a hostile or careless snapshot from taking unbounded memory or time. */
export interface LoadLimits {
  /**
   * Longest CSV line in bytes (without its line break). Real rows are under 200 bytes;
   * the bound keeps an unterminated line from being gathered into one huge string.
   */
  maxLineBytes: number;
  /**
   * A `.csv.gz` may expand to at most `maxExpansion` × its own size, once its expanded
   * bytes pass `expansionFloorBytes` (smaller files always read). Numeric CSV gzips 4–10×;
   * only a crafted file (a repeated row) comes near gzip's ceiling of ~1,000×.
   */
  maxExpansion: number;
  expansionFloorBytes: number;
  /** Largest manifest.json, read whole. */
  maxManifestBytes: number;
}

export const DEFAULT_LOAD_LIMITS: Readonly<LoadLimits> = {
  maxLineBytes: 64 * 1024,
  maxExpansion: 100,
  expansionFloorBytes: 64 * 1024 * 1024,
  maxManifestBytes: 64 * 1024,
};

/** The defaults with any given bound replaced. */
export function loadLimits(given: Partial<LoadLimits> = {}): LoadLimits {
  return { ...DEFAULT_LOAD_LIMITS, ...given };
}
