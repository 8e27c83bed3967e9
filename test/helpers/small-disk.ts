// A real small file system (tmpfs) mounted under a test's own temporary folder, to fill up and free again.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { open, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestContext } from 'node:test';

export interface SmallDisk {
  /** Where it is mounted. */
  readonly path: string;
  /** Writes one file until the file system refuses a byte more (ENOSPC); resolves with the bytes written. */
  fill(): Promise<number>;
  /** Deletes what `fill` wrote. */
  free(): Promise<void>;
  /** Unmounts it (after the processes using it ended). */
  unmount(): void;
}

/**
 * Mounts a tmpfs of `megabytes` at `<parent>/disk` (root only: `mount -t tmpfs`). Where it cannot
 * be mounted, skips the test saying why and returns null; under CI (CI=true) fails it instead.
 */
export function mountSmallDisk(t: TestContext, parent: string, megabytes: number): SmallDisk | null {
  const path = join(parent, 'disk');
  mkdirSync(path, { recursive: true });
  const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${megabytes}m,mode=0755`, 'tmpfs', path], {
    encoding: 'utf8',
  });
  if (mounted.status !== 0) {
    const reason = `cannot mount a tmpfs (${mounted.error?.message ?? mounted.stderr.trim()}): it takes root`;
    if (process.env.CI === 'true') assert.fail(`${reason}; CI runs as root and must mount it`);
    t.skip(reason);
    return null;
  }
  const filler = join(path, 'filler');
  return {
    path,
    async fill() {
      const file = await open(filler, 'a');
      let written = 0;
      try {
        for (const size of [1 << 20, 1 << 12, 1 << 9]) {
          const block = Buffer.alloc(size, 0x5a);
          for (;;) {
            try {
              written += (await file.write(block)).bytesWritten;
            } catch (error) {
              if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        await file.close();
      }
      return written;
    },
    free: () => rm(filler, { force: true }),
    unmount() {
      // A process that had files there may take a moment to be gone (the server's children): try for 5 s.
      const deadline = Date.now() + 5000;
      for (;;) {
        const r = spawnSync('umount', [path], { encoding: 'utf8' });
        if (r.status === 0) return;
        if (Date.now() > deadline) assert.fail(`umount ${path}: ${r.stderr}`);
        spawnSync('sleep', ['0.2']);
      }
    },
  };
}
