// The OpenAPI document passes Redocly's `recommended` lint rules with no error.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { buildOpenApi } from '../../transport/openapi.js';
import { tempDir } from '../helpers/snapshot-folder.js';

/** The CLI's JS entry, read from the package's `bin`: run with this Node, no shell and no npx. */
function redoclyEntry(): string {
  const manifestPath = createRequire(import.meta.url).resolve('@redocly/cli/package.json');
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  return join(dirname(manifestPath), typeof bin === 'string' ? bin : bin.redocly);
}

/**
 * The machines running this have no internet: telemetry off and no update notice keep the
 * CLI from reaching out (with telemetry on it looks a host up after every run).
 */
const OFFLINE_ENV = { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' };

/** Runs the CLI with `args` in `cwd`; resolves with its exit code and everything it printed. */
function redocly(args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [redoclyEntry(), ...args], {
      cwd,
      env: OFFLINE_ENV,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

test('redocly lint --extends recommended finds no error in the served document', async (t) => {
  const dir = await tempDir('mdq-openapi-lint-');
  t.after(() => dir.cleanup());
  const file = join(dir.path, 'openapi.json');
  await writeFile(file, JSON.stringify(buildOpenApi()));
  // Run in the temporary folder, so no redocly.yaml from elsewhere changes the rules.
  const { code, output } = await redocly(['lint', '--extends', 'recommended', '--format', 'stylish', file], dir.path);
  assert.match(output, /openapi\.json: validated in \d+ms/, `redocly validated the document:\n${output}`);
  const errors = output.split('\n').filter((line) => /^\s*\d+:\d+\s+error\s/.test(line));
  assert.deepEqual(errors, [], `no error lines:\n${output}`);
  assert.equal(code, 0, `redocly exits 0:\n${output}`);
});
