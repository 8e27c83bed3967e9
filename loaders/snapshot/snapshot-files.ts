// The names a snapshot folder may hold: the loader and the fingerprint look at nothing else.

import type { Stats } from 'node:fs';
import { lstat, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { isMarket, MARKETS } from '../../engine/markets.js';
import { SnapshotError } from './snapshot-error.js';

/** Files of the folder itself. */
export const ROOT_FILES = ['manifest.json', 'macro.csv', 'macro.csv.gz'] as const;
/** Files of a market folder, each as `.csv` or `.csv.gz`. */
export const MARKET_FILES = ['klines', 'symbols', 'fundamentals'] as const;
/** A market's folder of day files (K-lines besides or instead of klines.csv), e.g. one file per trading day. */
export const DAY_FILES_FOLDER = 'klines';

/** A day file's name: anything ending in `.csv` or `.csv.gz` (hidden names aside). */
const DAY_FILE = /^[^.].*\.csv(\.gz)?$/;

/**
 * The day files of `<folder>/<market>/klines/`, by name (code-unit order), or null when there is
 * no such folder. An entry that is not a `.csv`/`.csv.gz` file (a `.txt`, a sub-folder) is
 * refused: a day misnamed would otherwise be left out without a word. Hidden names are ignored.
 */
export async function dayFileNames(folder: string, market: string): Promise<string[] | null> {
  const dir = join(folder, market, DAY_FILES_FOLDER);
  const display = `${market}/${DAY_FILES_FOLDER}/`;
  const info = await probe(dir, display);
  if (info === null) return null;
  if (!info.isDirectory()) throw new SnapshotError(display, 0, 'not a folder');
  let names: string[];
  try {
    names = await readdir(dir);
  } catch (error) {
    throw new SnapshotError(
      display,
      0,
      `cannot read folder: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
  const out: string[] = [];
  for (const name of names) {
    if (name.startsWith('.')) continue;
    if (!DAY_FILE.test(name))
      throw new SnapshotError(`${display}${name}`, 0, 'not a day file: a K-line file here is named *.csv or *.csv.gz');
    out.push(name);
  }
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** Every path (relative to the folder) the format names, present or not. */
export function namedPaths(): string[] {
  const out: string[] = [...ROOT_FILES];
  for (const market of MARKETS)
    for (const base of MARKET_FILES) out.push(`${market}/${base}.csv`, `${market}/${base}.csv.gz`);
  return out;
}

/**
 * Folders (not links) in `folder` that are not markets: a misspelt market must not be
 * skipped silently. Other entries are never looked at; `lstat` does not follow links, so
 * dangling or looping ones are harmless, and a name that is not UTF-8 (which Node can
 * only show lossily) cannot be looked up and is ignored.
 */
export async function strayFolders(folder: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(folder)) {
    if (name.startsWith('.') || isMarket(name) || (ROOT_FILES as readonly string[]).includes(name)) continue;
    const info = await lstat(join(folder, name)).catch(() => null);
    if (info?.isDirectory()) out.push(name);
  }
  return out.sort();
}

/**
 * The named entry at `path` (links followed), or null when nothing has that name. One that
 * exists but cannot be reached (a dangling or looping link, no permission) is a
 * `display: cannot read: …` rejection.
 */
export async function probe(path: string, display: string): Promise<Stats | null> {
  try {
    return await stat(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    const linkToNothing =
      code === 'ENOENT' &&
      (await lstat(path).then(
        () => true,
        () => false,
      ));
    if (code === 'ENOENT' && !linkToNothing) return null;
    throw new SnapshotError(display, 0, `cannot read: ${linkToNothing ? 'a link to nothing' : code}`);
  }
}
