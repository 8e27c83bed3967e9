// CPU time of a process from /proc: tells whether the server (or wrk) was the saturated side of a run.

import { readFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';

/** Clock ticks per second of /proc/<pid>/stat times (almost always 100). */
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** User + system CPU seconds of all threads of `pid` so far, or null when /proc cannot tell. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which may itself hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS; // utime, stime (fields 14 and 15)
  } catch {
    return null;
  }
}

/**
 * Samples a process every `everyMs` so its busy share is known even after it exits
 * (an exited child's /proc entry is gone by the time its exit event arrives).
 */
export function watchCpu(pid: number, everyMs = 100): { stop(): number | null } {
  const t0 = performance.now();
  const c0 = cpuSeconds(pid);
  let last: { t: number; c: number } | null = null;
  const timer = setInterval(() => {
    const c = cpuSeconds(pid);
    if (c !== null) last = { t: performance.now(), c };
  }, everyMs);
  timer.unref(); // a watcher left running after an error must not keep the process alive
  return {
    /** Busy share of one core over the watched time (1 = one core fully used). */
    stop() {
      clearInterval(timer);
      const c = cpuSeconds(pid);
      if (c !== null) last = { t: performance.now(), c };
      if (c0 === null || last === null || last.t - t0 < 1) return null;
      return (last.c - c0) / ((last.t - t0) / 1000);
    },
  };
}

/**
 * Busy and total jiffies of the whole machine (first line of /proc/stat). Busy counts
 * user, nice, system and steal, not irq/softirq: loopback TCP work done in softirq is
 * charged to no process, and would otherwise look like someone else's load.
 */
function machineTicks(): { busy: number; total: number } | null {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, , , , , steal] = f;
    const total = f.slice(0, 8).reduce((a, b) => a + b, 0); // guest times are already inside user
    return { busy: user + nice + system + (steal ?? 0), total };
  } catch {
    return null;
  }
}

/**
 * Share of all cores busy over the next `ms` (0–1), or null without /proc. Taken before a
 * run: other work on the machine (a test suite, a build) lowers both sides unevenly.
 */
export async function machineBusy(ms = 1000): Promise<number | null> {
  const a = machineTicks();
  await new Promise((r) => setTimeout(r, ms));
  const b = machineTicks();
  if (a === null || b === null || b.total === a.total) return null;
  return (b.busy - a.busy) / (b.total - a.total);
}

/** Starts counting the whole machine's busy time; `stop()` gives busy cores on average (e.g. 1.7 of 2). */
export function watchMachine(): { stop(): number | null } {
  const a = machineTicks();
  const t0 = performance.now();
  return {
    stop() {
      const b = machineTicks();
      if (a === null || b === null || b.total === a.total) return null;
      const cores = (b.total - a.total) / TICKS / ((performance.now() - t0) / 1000);
      return ((b.busy - a.busy) / (b.total - a.total)) * cores;
    },
  };
}

/** Resident memory (VmRSS) of `pid` in bytes, or null when /proc cannot tell. */
export function vmRssBytes(pid: number): number | null {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m === null ? null : Number(m[1]) * 1024;
  } catch {
    return null;
  }
}
