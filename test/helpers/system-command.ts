// Tests that need a Debian package's binary: skipped with the reason where it is missing, failed under CI.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import type { TestContext } from 'node:test';

/** Why `command --version`-like `probe` cannot run, or null when it can. */
export function commandMissing(command: string, probe: string[] = ['--version']): string | null {
  const run = spawnSync(command, probe, { encoding: 'utf8' });
  if (run.error) return `${command} is not installed (${run.error.message})`;
  return run.status === 0 ? null : `${command} ${probe.join(' ')} exited with ${run.status}: ${run.stderr.trim()}`;
}

/**
 * True when `command` runs. Otherwise skips the test saying why (installing `pkg` is the
 * fix) and returns false; under CI (CI=true) fails it, so a runner cannot pass unchecked.
 */
export function needsCommand(t: TestContext, command: string, pkg: string, probe?: string[]): boolean {
  const reason = commandMissing(command, probe);
  if (reason === null) return true;
  if (process.env.CI === 'true') assert.fail(`${reason}; CI must install the Debian package ${pkg}`);
  t.skip(`${reason}: install the Debian package ${pkg}`);
  return false;
}
