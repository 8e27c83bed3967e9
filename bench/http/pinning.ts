// Which cores the server and the load generator get, and the taskset calls that pin them.

import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';

/** The pinning of one run, recorded in the output as it was really applied. */
export interface Pinning {
  /** Core of the server under test, or null when not pinned. */
  serverCore: number | null;
  /** Core of wrk, or null when not pinned. */
  loadCore: number | null;
  /** One line for the output: what was pinned where, or why nothing was. */
  note: string;
}

/** The CPUs this process may run on (its affinity list), e.g. "0-1,4" → [0, 1, 4]. */
function allowedCpus(): number[] | null {
  const out = spawnSync('taskset', ['-pc', String(process.pid)], { encoding: 'utf8' });
  if (out.status !== 0) return null;
  const list = out.stdout.split(':').pop()!.trim();
  const cpus: number[] = [];
  for (const part of list.split(',')) {
    const [a, b] = part.split('-').map(Number);
    for (let c = a; c <= (b ?? a); c++) cpus.push(c);
  }
  return cpus;
}

/** Server on the first allowed core, wrk on the second; no pinning without taskset or with one core. */
export function choosePinning(): Pinning {
  const cpus = allowedCpus();
  if (cpus === null)
    return {
      serverCore: null,
      loadCore: null,
      note: `not pinned: taskset unavailable (${availableParallelism()} cores shared)`,
    };
  if (cpus.length < 2)
    return { serverCore: null, loadCore: null, note: `not pinned: only CPU ${cpus.join(',')} is available` };
  const [serverCore, loadCore] = cpus;
  return { serverCore, loadCore, note: `server pinned to core ${serverCore}, wrk to core ${loadCore} (taskset)` };
}

/** Prefixes `command` with `taskset -c core` when a core is given. */
export function pinned(core: number | null, command: string, args: string[]): [string, string[]] {
  return core === null ? [command, args] : ['taskset', ['-c', String(core), command, ...args]];
}

/**
 * Moves every thread of a running process to `core` (`taskset -a`). Servers are pinned
 * once they listen: a first snapshot load uses worker threads and should not be squeezed
 * onto one core, and threads started later inherit the affinity.
 */
export function pinProcess(pid: number, core: number | null): void {
  if (core === null) return;
  const out = spawnSync('taskset', ['-a', '-pc', String(core), String(pid)], { encoding: 'utf8' });
  if (out.status !== 0) throw new Error(`taskset -a -pc ${core} ${pid} failed: ${out.stderr.trim()}`);
}
