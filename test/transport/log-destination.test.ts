// The log's destination when stdout refuses every write (a log file on a full disk: /dev/full answers
// ENOSPC): the process neither ends for it nor hangs at exit.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import { test } from 'node:test';

const LOG = new URL('../../transport/log.js', import.meta.url).href;

test('stdout refusing every write (ENOSPC): 50 lines logged, the process runs on and exits 0 at once after flushSync', () => {
  const script = `
    import { createLogger, stdoutDestination } from ${JSON.stringify(LOG)};
    const destination = stdoutDestination();
    const logger = createLogger('info', destination);
    let n = 0;
    const timer = setInterval(() => {
      logger.info('line ' + n);
      if (++n < 50) return;
      clearInterval(timer);
      process.stderr.write('alive after 50 lines\\n');
      destination.flushSync();
      process.exit(0);
    }, 2);`;
  const full = openSync('/dev/full', 'w');
  try {
    const started = performance.now();
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', full, 'pipe'],
      encoding: 'utf8',
      timeout: 10_000,
    });
    assert.equal(r.signal, null, `not killed by the 10 s timeout (hung): ${r.stderr}`);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, 'alive after 50 lines\n');
    assert.ok(performance.now() - started < 5000, 'it exits at once');
  } finally {
    closeSync(full);
  }
});
