// A cheap identity of a snapshot folder: its real path and each named file's size and mtime.

import { createHash } from 'node:crypto';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import { MARKETS } from '../../engine/markets.js';
import { DAY_FILES_FOLDER, namedPaths, strayFolders } from '../snapshot/snapshot-files.js';

/**
 * Changes when a file the format names (a day file included) is added, removed, resized or
 * touched, when a folder that is not a market appears, or when the folder is repointed. Nothing else is
 * looked at, so a dangling link, a link loop or a name that is not UTF-8 elsewhere in the
 * folder cannot fail it; a named file that cannot be reached is hashed as its error code,
 * for the loader to reject.
 */
export async function folderFingerprint(folder: string): Promise<string> {
  let root: string;
  let stray: string[];
  try {
    root = await realpath(folder);
    stray = await strayFolders(root);
  } catch (error) {
    throw new SnapshotError(
      folder,
      0,
      `cannot read folder: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`,
    );
  }
  const hash = createHash('sha256');
  hash.update(root);
  for (const name of stray) hash.update(`\n${name}/`);
  const entry = (path: string): Promise<string | null> =>
    stat(join(root, path)).then(
      (info) => `${info.size}\t${info.mtimeMs}\t${info.ino}`,
      (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : `error ${error.code}`),
    );
  for (const path of namedPaths()) {
    const e = await entry(path);
    if (e !== null) hash.update(`\n${path}\t${e}`);
  }
  // Each market's day files: every entry of its klines/ folder (a file added or removed changes it too).
  for (const market of MARKETS) {
    const folder = `${market}/${DAY_FILES_FOLDER}`;
    const names = await readdir(join(root, folder)).catch(() => null);
    if (names === null) continue;
    for (const name of names.sort()) hash.update(`\n${folder}/${name}\t${await entry(`${folder}/${name}`)}`);
  }
  return hash.digest('hex');
}
