// The room left on the disk holding a path, as this process may use it (statfs: blocks available to
// unprivileged writers), for writes that must be refused before they start.

import { statfsSync } from 'node:fs';

/** Bytes free for this process on the file system holding `path`; null when it cannot be asked. */
export function freeBytes(path: string): number | null {
  try {
    const s = statfsSync(path);
    return s.bavail * s.bsize;
  } catch {
    return null;
  }
}
