// A cheap identity of a snapshot folder: its real path and each named file's size and mtime.

import { createHash } from 'node:crypto';
import { realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { SnapshotError } from '../snapshot/snapshot-error.js';
import { namedPaths, strayFolders } from '../snapshot/snapshot-files.js';

/**
 * Changes when a file the format names is added, removed, resized or touched, when a
 * folder that is not a market appears, or when the folder is repointed. Nothing else is
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
  for (const path of namedPaths()) {
    const entry = await stat(join(root, path)).then(
      (info) => `${info.size}\t${info.mtimeMs}\t${info.ino}`,
      (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? null : `error ${error.code}`),
    );
    if (entry !== null) hash.update(`\n${path}\t${entry}`);
  }
  return hash.digest('hex');
}
