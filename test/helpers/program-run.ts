// Runs a compiled program (the server or a CLI) to its end, for tests of how it refuses to start.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { ALL_SETTINGS } from '../../loaders/config/settings.js';

/** The parent's environment without any declared variable, so only what a test sets counts. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const s of ALL_SETTINGS) if (s.env !== null) delete env[s.env];
  return { ...env, ...extra };
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs `node <entry> <args>` with a clean environment plus `env`; waits for its end (20 s at most). */
export function run(entry: string, args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const started = performance.now();
  const r = spawnSync(process.execPath, [entry, ...args], { encoding: 'utf8', env: cleanEnv(env), timeout: 20_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms: performance.now() - started };
}

/** Exit 2, nothing on stdout, exactly one line on stderr and no stack trace; returns the line. */
export function assertOneLineExit2(r: Run, what: string): string {
  assert.equal(r.code, 2, `${what}: exit code 2 (stderr: ${r.stderr})`);
  assert.equal(r.stdout, '', `${what}: nothing on stdout`);
  const lines = r.stderr.split('\n');
  assert.equal(lines.pop(), '', `${what}: the line ends with a newline`);
  assert.equal(lines.length, 1, `${what}: exactly one line, got:\n${r.stderr}`);
  assert.doesNotMatch(r.stderr, /^\s+at /m, `${what}: no stack trace`);
  return lines[0];
}
