// The Python client (clients/python) against a real server: its unittest suite and its example,
// run by Debian's python3 with python3-pandas (.ci/run installs them; without them the test is
// skipped saying why, and under CI it fails).

import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { TestServer } from '../helpers/api-server.js';
import { startAnswerServer } from '../helpers/e2e.js';

const CLIENT = fileURLToPath(new URL('../../../clients/python/', import.meta.url));
const run = promisify(execFile);

/** The first python3 that imports pandas: Debian's, then the one on PATH. */
function python(): string | null {
  for (const candidate of ['/usr/bin/python3', 'python3']) {
    const probe = spawnSync(candidate, ['-c', 'import pandas'], { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  return null;
}

const interpreter = python();
const skip =
  interpreter === null ? 'no python3 with pandas (apt-get install -y python3 python3-pandas; .ci/run does it)' : null;

if (skip !== null) {
  if (process.env.CI === 'true') test('Python client', () => assert.fail(`${skip}; CI must run the Python client`));
  else test('Python client', { skip }, () => {});
} else {
  let server: TestServer;
  before(async () => (server = await startAnswerServer()));
  after(() => server.close());

  test('the Python client passes its unittest suite and runs its example against the server', {
    timeout: 120_000,
  }, async () => {
    // Asynchronously: the server answers from this process's event loop.
    const result = await run(interpreter!, ['-m', 'unittest', 'discover', '-s', 'tests', '-v'], {
      cwd: CLIENT,
      env: {
        ...process.env,
        PYTHONPATH: `${CLIENT}src`,
        MDQ_URL: `http://127.0.0.1:${server.port}`,
        MDQ_KEY: server.keys.pro,
      },
    }).catch((error: { stdout?: string; stderr?: string }) => {
      assert.fail(`unittest failed:\n${error.stderr ?? ''}${error.stdout ?? ''}`);
    });
    assert.match(result.stderr, /Ran [1-9]\d* tests?/);
    assert.match(result.stderr, /\nOK\n?$/);
  });
}
