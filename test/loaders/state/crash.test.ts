// Crash durability: SIGKILL loses at most about a second of usage; a clean stop (SIGTERM) loses none.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test, type TestContext } from 'node:test';
import { fileURLToPath } from 'node:url';
import { StateStore } from '../../../loaders/state/state-store.js';

const CHILD = fileURLToPath(new URL('../../helpers/usage-child.js', import.meta.url));
/** Flush period (1 s) plus room for timer lateness and the commit itself. */
const LOSS_WINDOW_MS = 1_100;

interface ChildRun {
  day: string;
  id: string;
  counts: Array<[n: number, ms: number]>;
  final: number | null;
  signal: NodeJS.Signals | null;
  code: number | null;
}

/** Runs the child, sends `signal` `afterMs` after it is ready, and collects every line until it exits. */
function runChild(dir: string, signal: NodeJS.Signals, afterMs: number): Promise<ChildRun> {
  const child = spawn(process.execPath, [CHILD, dir, '200'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const out: ChildRun = { day: '', id: '', counts: [], final: null, signal: null, code: null };
  createInterface({ input: child.stdout }).on('line', (line) => {
    const [what, a, b] = line.split(' ');
    if (what === 'ready') {
      [out.day, out.id] = [a, b];
      setTimeout(() => child.kill(signal), afterMs);
    } else if (what === 'count') out.counts.push([Number(a), Number(b)]);
    else if (what === 'final') out.final = Number(a);
  });
  // 'close' comes after the process exited and its stdout ended: every line has been read.
  return new Promise((resolve) => child.on('close', (code, signal) => resolve({ ...out, code, signal })));
}

function storedUsage(dir: string, run: ChildRun): Promise<{ used: number; requests: number }> {
  const store = StateStore.open(dir);
  const u = store.usage.get(run.day, run.id);
  return store.close().then(() => u);
}

function tempDir(t: TestContext): string {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-crash-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

test('after SIGKILL the stored counts are within one second of what the child reported', async (t) => {
  const dir = tempDir(t);
  const run = await runChild(dir, 'SIGKILL', 2_600);
  assert.equal(run.signal, 'SIGKILL', 'the child was killed');
  const [reported, lastMs] = run.counts.at(-1)!;
  const stored = await storedUsage(dir, run);
  const lastSecond = run.counts.filter(([, ms]) => ms > lastMs - LOSS_WINDOW_MS).length;
  assert.ok(stored.used > 0, 'earlier flushes reached the disk');
  assert.ok(stored.used <= reported, `stored ${stored.used} never exceeds reported ${reported}`);
  assert.ok(
    reported - stored.used <= lastSecond,
    `lost ${reported - stored.used} rows, at most the ${lastSecond} of the last second`,
  );
  t.diagnostic(`reported ${reported}, stored ${stored.used}, last second ${lastSecond}`);
  assert.equal(stored.requests, stored.used, 'requests are stored with the rows of the same flush');
});

test('after a clean stop (SIGTERM) the stored counts are exact', async (t) => {
  const dir = tempDir(t);
  const run = await runChild(dir, 'SIGTERM', 1_300);
  assert.equal(run.code, 0, 'the child exited cleanly');
  assert.ok(run.final !== null && run.final > 0, 'the child reported its final count');
  assert.deepEqual(await storedUsage(dir, run), { used: run.final, requests: run.final });
});
