// Signals that reach the server while it starts (reading and storing its snapshot, before its port
// is listened on): SIGHUP is kept and reloads once serving, SIGTERM stops with exit 0. The signal
// is sent once /proc/<pid>/status shows a handler for it, and before the server says it serves.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { freePort } from '../helpers/nginx.js';
import { MAIN_JS } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const GEN_DEMO = new URL('../../loaders/demo/cli.js', import.meta.url).pathname;
const SIGNALS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 } as const;

let demo: string;
let work: string;
let cleanup: () => Promise<void>;
before(async () => {
  ({ path: work, cleanup } = await tempDir('mdq-signals-'));
  demo = join(work, 'demo');
  // Big enough that reading and storing it takes a second or more: the window the signals land in.
  const made = spawnSync(process.execPath, [GEN_DEMO, '--out', demo, '--scale', '0.04', '--years', '3'], {
    encoding: 'utf8',
  });
  assert.equal(made.status, 0, made.stderr);
});

interface Started {
  child: ChildProcess;
  lines: string[];
  exited: Promise<number | null>;
}

function start(state: string, options: { port?: number; env?: Record<string, string> } = {}): Started {
  const child = spawn(
    process.execPath,
    [MAIN_JS, '--port', String(options.port ?? 0), '--host', '127.0.0.1', '--state', state, '--snapshot', demo],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...options.env },
    },
  );
  const lines: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) {
    let rest = '';
    stream.setEncoding('utf8').on('data', (chunk: string) => {
      const cut = (rest + chunk).split('\n');
      rest = cut.pop()!;
      lines.push(...cut);
    });
  }
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, lines, exited };
}

/**
 * Resolves once the process has a handler for SIGHUP (its bit in SigCgt), which the server sets
 * with its SIGTERM and SIGINT handlers (Node has its own for those two from the start, so their
 * bits tell nothing).
 */
async function handlesSignals(pid: number): Promise<void> {
  const bit = 1n << BigInt(SIGNALS.SIGHUP - 1);
  for (let i = 0; i < 1000; i++) {
    const m = /^SigCgt:\s+([0-9a-f]+)$/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    if (m !== null && (BigInt(`0x${m[1]}`) & bit) !== 0n) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error('no SIGHUP handler after 5 s');
}

const serving = (lines: string[]): boolean => lines.some((l) => l.includes('"msg":"Serving '));

async function waitFor(lines: string[], pattern: RegExp, ms = 30_000): Promise<void> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((resolve) => setTimeout(resolve, 20)))
    if (lines.some((l) => pattern.test(l))) return;
  throw new Error(`no line ${pattern} within ${ms} ms:\n${lines.join('\n')}`);
}

const running: ChildProcess[] = [];
after(async () => {
  for (const child of running) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await cleanup();
});

test('a SIGHUP during start is kept: the server starts, serves, then reads its folder again', async () => {
  const s = start(join(work, 'state-hup'));
  running.push(s.child);
  await handlesSignals(s.child.pid!);
  assert.equal(serving(s.lines), false, 'the signal is sent while the server is still starting');
  s.child.kill('SIGHUP');
  await waitFor(s.lines, /"msg":"Serving /);
  await waitFor(s.lines, /reload: (unchanged|reading)/);
  const servedAt = s.lines.findIndex((l) => l.includes('"msg":"Serving '));
  const reloadAt = s.lines.findIndex((l) => l.includes('reload: reading'));
  assert.ok(servedAt >= 0 && reloadAt > servedAt, `the reload runs after the server serves:\n${s.lines.join('\n')}`);
  assert.ok(
    s.lines.some((l) => l.includes('SIGHUP during start')),
    'the kept signal is logged',
  );
  assert.equal(s.child.exitCode, null, 'still running');
  s.child.kill('SIGTERM');
  assert.equal(await s.exited, 0);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  test(`a ${signal} during start stops the server with exit 0, before it serves`, async () => {
    const s = start(join(work, `state-${signal}`));
    running.push(s.child);
    await handlesSignals(s.child.pid!);
    assert.equal(serving(s.lines), false, 'the signal is sent while the server is still starting');
    s.child.kill(signal);
    assert.equal(await s.exited, 0, 'exit 0 (a clean stop), not killed by the signal');
    assert.equal(serving(s.lines), false, 'it never served');
    assert.ok(
      s.lines.some((l) => l.includes(`${signal} during start`)),
      `the stop is logged:\n${s.lines.join('\n')}`,
    );
  });
}

test('a SIGTERM as soon as /readyz answers, while the other serving threads still start: they listen, then drain; exit 0, not an abort', async () => {
  const port = await freePort();
  const s = start(join(work, 'state-ready'), { port, env: { THREADS: '2' } });
  running.push(s.child);
  for (;;) {
    const status = await fetch(`http://127.0.0.1:${port}/readyz`).then(
      (r) => r.status,
      () => 0,
    );
    if (status === 200) break;
    assert.equal(s.child.exitCode, null, `the server exited while starting:\n${s.lines.join('\n')}`);
    await new Promise((resolve) => setTimeout(resolve, 2));
  }
  assert.equal(
    serving(s.lines),
    false,
    'the signal is sent before the other thread listens (the server says it serves once all do)',
  );
  s.child.kill('SIGTERM');
  assert.equal(await s.exited, 0, `exit 0 (a drain), not killed:\n${s.lines.join('\n')}`);
  assert.equal(s.child.signalCode, null);
  assert.ok(
    s.lines.some((l) => l.includes('drained; bye')),
    `the drain is logged:\n${s.lines.join('\n')}`,
  );
});
