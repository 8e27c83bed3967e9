// The page cache dropped for a cold figure (a restart's first requests, a part check, an evening
// after a day idle): as root on Linux; elsewhere the figure is taken warm and says so.

import { execFileSync } from 'node:child_process';
import { accessSync, constants, writeFileSync } from 'node:fs';

const DROP_CACHES = '/proc/sys/vm/drop_caches';

/** Whether this process may drop the page cache (root on Linux). */
export function canDropPageCache(): boolean {
  try {
    accessSync(DROP_CACHES, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every clean page of the page cache dropped (dirty ones written first), where this process may:
 * what a read finds after a day idle on a machine whose memory is wanted elsewhere, or which pages
 * out memory left unread (a VM handing it back to its host). False where it may not.
 */
export function dropPageCache(): boolean {
  if (!canDropPageCache()) return false;
  execFileSync('sync');
  writeFileSync(DROP_CACHES, '1\n');
  return true;
}
