// The server refuses to start on uWebSockets.js's slow JavaScript fallback.

import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SERVER = fileURLToPath(new URL('../../transport/server.js', import.meta.url));
const CHECK = `import(${JSON.stringify(SERVER)}).then((m) => { m.assertNativeUws(); console.log('native'); })`;

test('with the native binary loaded, the check passes', async () => {
  const { stdout } = await run(process.execPath, ['-e', CHECK]);
  assert.equal(stdout.trim(), 'native');
});

test('when uWS falls back to its JavaScript implementation, the check refuses to start', async () => {
  await assert.rejects(
    run(process.execPath, ['-e', CHECK], { env: { ...process.env, UWS_USE_FALLBACK: '1' } }),
    (error: { stderr: string }) => {
      assert.match(error.stderr, /did not load its native binary/);
      return true;
    },
  );
});
