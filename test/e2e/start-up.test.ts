// The real server and CLIs at start: a bad setting or a taken port exits 2 with one line before any data work; --help everywhere.

import assert from 'node:assert/strict';
import { readdirSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { PROGRAMS, SERVER_SETTINGS } from '../../loaders/config/settings.js';
import { lockName } from '../../loaders/state/instance-lock.js';
import { httpRequest } from '../helpers/api-server.js';
import { fixtureCopy } from '../helpers/fixture-copy.js';
import { assertOneLineExit2, run } from '../helpers/program-run.js';
import { MAIN_JS, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const dist = (path: string): string => fileURLToPath(new URL(`../../${path}`, import.meta.url));
/** Each program's compiled entry point, by its name in error lines. */
const ENTRY: Record<string, string> = {
  mdq: MAIN_JS,
  load: dist('loaders/cli/load.js'),
  keys: dist('loaders/cli/keys.js'),
  admin: dist('loaders/cli/admin.js'),
  'gen-demo': dist('loaders/demo/cli.js'),
};

describe('a bad setting of the server', () => {
  let state: Awaited<ReturnType<typeof tempDir>>;
  let aFile: string;
  /** An empty folder as SNAPSHOT_DIR: should a check ever miss, the start fails fast on it instead of generating the 1 GB demo. */
  let empty: Awaited<ReturnType<typeof tempDir>>;
  before(async () => {
    state = await tempDir('mdq-startup-');
    empty = await tempDir('mdq-startup-empty-');
    aFile = join(state.path, '..', `mdq-startup-file-${process.pid}`);
    writeFileSync(aFile, '');
  });
  after(async () => {
    rmSync(aFile, { force: true });
    await state.cleanup();
    await empty.cleanup();
  });

  /** A bad value for every server setting, as its environment variable. */
  const bad = (): Record<keyof typeof SERVER_SETTINGS, string> => ({
    port: '65536',
    host: 'not a host',
    snapshot: '/nonexistent',
    state: aFile,
    keepEditions: '0',
    quotaTz: 'Mars/Base',
    plansFile: '/nonexistent/plans.json',
    threads: '0',
    poolThreads: '-1',
    screenPoolMinRows: '-1',
    klineTextCacheMb: '1e3',
    asOfCacheMb: '-5',
    responseCacheMb: 'abc',
    busyPollMs: '1001',
    exportStallS: '4',
    exportsPerKey: '0',
    drainGraceMs: '9000',
    streamIdleSeconds: '4',
    corsOrigins: 'ftp://x.example',
    adminOrigin: 'https://ops.example/dashboard',
    smtpUrl: 'http://user:hunter2@mail.example',
    redisUrl: 'http://user:hunter2@redis.example:6379',
    mailFrom: 'nobody',
    accessLog: 'maybe',
    metrics: 'sometimes',
    logLevel: 'verbose',
  });

  test('every declared server setting has a bad value here', () => {
    assert.deepEqual(Object.keys(bad()).sort(), Object.keys(SERVER_SETTINGS).sort());
  });

  test('each bad variable exits 2 with one line naming it, before any data work', () => {
    for (const [key, value] of Object.entries(bad())) {
      const name = SERVER_SETTINGS[key as keyof typeof SERVER_SETTINGS].env!;
      const r = run(MAIN_JS, [], { PORT: '0', STATE_DIR: state.path, SNAPSHOT_DIR: empty.path, [name]: value });
      const line = assertOneLineExit2(r, name);
      assert.ok(line.startsWith(`mdq: ${name} must `), `${name}: the line names it: ${line}`);
      assert.deepEqual(readdirSync(state.path), [], `${name}: nothing written to the state folder (no data work)`);
    }
  });

  for (const [args, env, message] of [
    [['--prot', '1'], {}, 'mdq: unknown flag --prot (did you mean --port?); --help lists the flags'],
    [
      [],
      { QUOTA_TZ: 'Mars/Base' },
      "mdq: QUOTA_TZ must be an IANA time zone such as UTC, Asia/Shanghai or America/New_York, got 'Mars/Base'",
    ],
    [
      ['--snapshot', '/nonexistent'],
      {},
      "mdq: --snapshot must be an existing folder (no such folder), got '/nonexistent'",
    ],
    [[], { POOL_THREADS: '-1' }, "mdq: POOL_THREADS must be a whole number from 1 to 256, got '-1'"],
    [[], { RESPONSE_CACHE_MB: 'abc' }, "mdq: RESPONSE_CACHE_MB must be a whole number from 0 to 65536, got 'abc'"],
  ] as const) {
    const what = [...args, ...Object.entries(env).map(([k, v]) => `${k}=${v}`)].join(' ');
    test(`${what}: exit 2 in well under a second with "${message}"`, () => {
      const r = run(MAIN_JS, ['--state', state.path, ...args], { SNAPSHOT_DIR: empty.path, ...env });
      assert.equal(assertOneLineExit2(r, what), message);
      assert.ok(r.ms < 2000, `exits at once (took ${r.ms.toFixed(0)} ms; 0.2 s here when the machine is idle)`);
      assert.deepEqual(readdirSync(state.path), [], 'nothing written to the state folder');
    });
  }

  test('the password in a bad SMTP_URL is not printed', () => {
    const r = run(MAIN_JS, ['--state', state.path], {
      SNAPSHOT_DIR: empty.path,
      SMTP_URL: 'http://user:hunter2@mail.example',
    });
    assert.ok(!assertOneLineExit2(r, 'SMTP_URL').includes('hunter2'));
  });
});

describe('--help and unknown flags on every command', () => {
  for (const program of PROGRAMS) {
    test(`${program.name} --help exits 0 and lists every setting it reads`, () => {
      const r = run(ENTRY[program.name], ['--help']);
      assert.equal(r.code, 0, r.stderr);
      assert.ok(r.stdout.startsWith(`usage: ${program.usage}`), 'usage first');
      for (const s of Object.values(program.settings)) {
        if (s.flag !== null) assert.ok(r.stdout.includes(`--${s.flag}`), `lists --${s.flag}`);
        if (s.env !== null) assert.ok(r.stdout.includes(s.env), `lists ${s.env}`);
      }
    });

    test(`${program.name} with an unknown flag exits 2 with one line`, () => {
      const line = assertOneLineExit2(run(ENTRY[program.name], ['--colour']), `${program.name} --colour`);
      assert.equal(line, `${program.name}: unknown flag --colour; --help lists the flags`);
    });
  }
});

describe('a port already in use', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let first: ServerProcess;
  before(async () => {
    dir = await tempDir('mdq-port-');
    const snapshot = await fixtureCopy(join(dir.path, 'snapshot'));
    first = await startServerProcess({ snapshot, state: join(dir.path, 'state-1') });
  });
  after(async () => {
    await first?.kill();
    await dir.cleanup();
  });

  test('a second server on the same port exits 2 naming host:port, before any data work, and the first keeps serving', async () => {
    const state = join(dir.path, 'state-2');
    const r = run(MAIN_JS, ['--host', '127.0.0.1', '--port', String(first.port), '--state', state]);
    assert.equal(
      assertOneLineExit2(r, 'second server'),
      `mdq: cannot listen on 127.0.0.1:${first.port}: the port is already in use`,
    );
    assert.throws(() => readdirSync(state), /ENOENT/, 'the second server made no state folder');
    const health = await httpRequest(first.port, '/healthz');
    assert.equal(health.status, 200, 'the first server still answers');
    assert.equal(health.headers['x-data-version'], first.version, 'and it is the first server that answers');
  });
});

describe('a state folder already served', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let first: ServerProcess;
  let state = '';
  before(async () => {
    dir = await tempDir('mdq-lock-');
    const snapshot = await fixtureCopy(join(dir.path, 'snapshot'));
    state = join(dir.path, 'state');
    first = await startServerProcess({ snapshot, state });
  });
  after(async () => {
    await first?.kill();
    await dir.cleanup();
  });

  test("a second server on the same state folder (through a link too) exits 2 naming the first one's pid, and the first keeps serving", async () => {
    const alias = join(dir.path, 'alias');
    symlinkSync(state, alias);
    for (const path of [state, alias]) {
      const r = run(MAIN_JS, ['--host', '127.0.0.1', '--port', '0', '--state', path]);
      assert.equal(
        assertOneLineExit2(r, 'second server'),
        `mdq: state folder ${state} is in use by another server (pid ${first.pid}): give each instance its own STATE_DIR`,
      );
    }
    const health = await httpRequest(first.port, '/healthz');
    assert.equal(health.status, 200, 'the first server still answers');
  });

  test('a client that connects to the lock and resets at once does not stop the server', async () => {
    for (let n = 0; n < 5; n++) {
      await new Promise<void>((resolve) => {
        const socket = connect(lockName(realpathSync(state)));
        socket.on('connect', () => socket.destroy());
        socket.on('close', () => resolve());
        socket.on('error', () => {});
      });
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    assert.equal((await httpRequest(first.port, '/healthz')).status, 200, 'the server still answers');
  });

  test('the CLIs still work beside the server (they take no lock)', () => {
    const r = run(ENTRY.keys, ['list', '--state', state]);
    assert.equal(r.code, 0, r.stderr);
  });

  test('once the first is killed (SIGKILL: no clean-up at all), a new server starts on the folder', async () => {
    first.signal('SIGKILL');
    await first.exited;
    const second = await startServerProcess({ snapshot: join(dir.path, 'snapshot'), state });
    try {
      assert.equal((await httpRequest(second.port, '/healthz')).status, 200);
    } finally {
      await second.kill();
    }
  });
});
