// A cheap identity of a snapshot folder: its real path and every file's size and mtime.

import { createHash } from 'node:crypto';
import { readdir, realpath, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Changes when any file is added, removed, resized or touched, or the folder is repointed. */
export async function folderFingerprint(folder: string): Promise<string> {
  const hash = createHash('sha256');
  const root = await realpath(folder);
  hash.update(root);
  const walk = async (dir: string, prefix: string): Promise<void> => {
    const names = (await readdir(dir)).filter((name) => !name.startsWith('.')).sort();
    for (const name of names) {
      const info = await stat(join(dir, name));
      if (info.isDirectory()) await walk(join(dir, name), `${prefix}${name}/`);
      else hash.update(`\n${prefix}${name}\t${info.size}\t${info.mtimeMs}\t${info.ino}`);
    }
  };
  await walk(root, '');
  return hash.digest('hex');
}
