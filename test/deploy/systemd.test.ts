// deploy/mdq.service: systemd accepts it, it reloads with SIGHUP and stops with SIGTERM after
// the drain, and every variable it sets is a setting the server reads, with a value it accepts.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { readSettings } from '../../loaders/config/read-settings.js';
import { SERVER } from '../../loaders/config/settings.js';
import { tempDir } from '../helpers/snapshot-folder.js';
import { needsCommand } from '../helpers/system-command.js';

const UNIT = fileURLToPath(new URL('../../../deploy/mdq.service', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const text = readFileSync(UNIT, 'utf8');

/** The values of `key=` lines of the [Service] section, in order. */
function service(key: string): string[] {
  const section = text.slice(text.indexOf('[Service]'), text.indexOf('[Install]'));
  return section
    .split('\n')
    .filter((l) => l.startsWith(`${key}=`))
    .map((l) => l.slice(key.length + 1));
}

test('systemd-analyze verify accepts the unit (pointed at this checkout)', async (t) => {
  if (!needsCommand(t, 'systemd-analyze', 'systemd', ['--version'])) return;
  const dir = await tempDir('mdq-unit-');
  t.after(dir.cleanup);
  // The shipped paths (/opt/mdq, /usr/bin/node) are the install's; verify checks that ExecStart's binary exists.
  const local = text
    .replace(/^WorkingDirectory=.*$/m, `WorkingDirectory=${ROOT}`)
    .replace(/^ExecStart=\S+ /m, `ExecStart=${process.execPath} `);
  const file = join(dir.path, 'mdq.service');
  writeFileSync(file, local);
  const run = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
  assert.equal(run.status, 0, `systemd-analyze verify refused the unit:\n${run.stderr}`);
  assert.equal(run.stderr.trim(), '', 'and printed no warning');
});

test('reload is SIGHUP to the main process, stop is SIGTERM with time for the drain, exit 2 is not restarted', () => {
  assert.deepEqual(service('ExecReload'), ['/bin/kill -HUP $MAINPID']);
  assert.deepEqual(service('KillSignal'), ['SIGTERM']);
  assert.ok(Number(service('TimeoutStopSec')[0]) > 9, 'longer than the drain limit (9 s)');
  assert.deepEqual(service('RestartPreventExitStatus'), ['2']);
  assert.match(service('ExecStart')[0], / dist\/main\.js$/, 'the built entry, no compile at start');
  assert.match(service('RestrictAddressFamilies')[0], /AF_UNIX/, 'the state folder lock is a Unix socket');
});

test('every Environment= variable is a server setting, and the server accepts the values', async (t) => {
  const env: NodeJS.ProcessEnv = {};
  for (const line of service('Environment')) {
    const eq = line.indexOf('=');
    env[line.slice(0, eq)] = line.slice(eq + 1);
  }
  const declared = new Set(Object.values(SERVER.settings).map((s) => s.env));
  for (const name of Object.keys(env)) assert.ok(declared.has(name), `${name} is a setting the server reads`);
  // The folders are the install's; here they are stand-ins that exist.
  const dir = await tempDir('mdq-unit-env-');
  t.after(dir.cleanup);
  const reading = readSettings(SERVER, [], { ...env, SNAPSHOT_DIR: dir.path, STATE_DIR: join(dir.path, 'state') });
  assert.equal(reading.help, false);
  const values = (reading as { values: Record<string, unknown> }).values;
  assert.equal(values.port, Number(env.PORT));
  assert.equal(values.host, env.HOST);
  assert.equal(values.accessLog, true);
});
