// Child process: checks the content of the parts named by its first argument (a JSON list of
// folders), telling a PartVerdict for each over the IPC channel.

import { setPriority } from 'node:os';
import { open } from 'lmdb';
import { DATA_DB, DATA_KEY, envFile, PART_MAP_BYTES, type PartMeta } from './layout.js';
import { packCrc32, partFileProblem } from './part-check.js';
import type { PartVerdict } from './part-verify.js';

/** What is wrong with the content of the part at `dir` (its structure checked first), or null. */
function problemOf(dir: string): { problem: string | null; bytes: number } {
  const structure = partFileProblem(dir);
  if (structure !== null) return { problem: structure, bytes: 0 };
  const env = open({ path: envFile(dir), encoding: 'msgpack', readOnly: true, mapSize: PART_MAP_BYTES });
  try {
    const meta = env.get('meta') as PartMeta | undefined;
    const value = env.openDB({ name: DATA_DB, encoding: 'binary' }).getBinaryFast(DATA_KEY);
    if (meta === undefined || value === undefined) return { problem: 'holds no part meta or no columns', bytes: 0 };
    const crc = packCrc32(value);
    return {
      problem:
        crc === meta.packCrc32
          ? null
          : `the market's columns have crc32 ${crc.toString(16).padStart(8, '0')}, not ${Number(meta.packCrc32).toString(16).padStart(8, '0')} as stored: damaged`,
      bytes: value.length,
    };
  } finally {
    void env.close();
  }
}

// The server gone (its channel closed): nothing waits for this check any longer.
process.once('disconnect', () => process.exit(0));
// The server's requests come first: this process takes what CPU is left.
try {
  setPriority(0, 19);
} catch {
  // not allowed here: the check runs at the server's priority
}
for (const dir of JSON.parse(process.argv[2]) as string[]) {
  const started = performance.now();
  let verdict: PartVerdict;
  try {
    verdict = { dir, ...problemOf(dir), ms: 0 };
  } catch (error) {
    verdict = { dir, problem: `cannot be read (${(error as Error).message})`, bytes: 0, ms: 0 };
  }
  verdict.ms = performance.now() - started;
  await new Promise<void>((resolve) => process.send!(verdict, () => resolve()));
}
process.removeAllListeners('disconnect');
process.disconnect();
