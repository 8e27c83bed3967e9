// Checks the content of stored parts in a child process: each pack's crc32 against the one stored with it.

import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { DamagedFile } from './damage.js';
import { envFile } from './layout.js';

/** What the child tells of each part it checked (verify-task.ts). */
export interface PartVerdict {
  dir: string;
  /** What is wrong, or null when its content is the one stored. */
  problem: string | null;
  bytes: number;
  ms: number;
}

/**
 * The parts of `dirs` whose content differs from what was stored (as DamagedFile), checked in a
 * child process at low priority: every byte of each pack is read and its crc32 computed (a few
 * GB/s a core), off the server's threads and memory (its pages of the map are its own, not the
 * server's RSS). `onVerdict` hears each part as it is done. Rejects when the child fails.
 */
export function verifyInChild(dirs: string[], onVerdict: (v: PartVerdict) => void = () => {}): Promise<DamagedFile[]> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(new URL('./verify-task.js', import.meta.url)), [JSON.stringify(dirs)], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const damaged: DamagedFile[] = [];
    let heard = 0;
    child.on('message', (v: PartVerdict) => {
      heard++;
      onVerdict(v);
      if (v.problem !== null) damaged.push(new DamagedFile(envFile(v.dir), v.problem, v.dir));
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      heard === dirs.length
        ? resolve(damaged)
        : reject(
            new Error(
              `part check process ended (${signal ?? `exit code ${code}`}) after ${heard} of ${dirs.length} parts`,
            ),
          ),
    );
  });
}
