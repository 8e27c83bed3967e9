// Reading settings from flags and the environment: precedence, checks, messages, help, and the declared defaults.

import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { DEFAULT_MIN_SCREEN_ROWS, defaultPoolThreads } from '../../../engine/pool/pool.js';
import { helpText, readSettings, SettingError, type Values } from '../../../loaders/config/read-settings.js';
import {
  ALL_SETTINGS,
  GEN_DEMO,
  KEYS,
  LOAD,
  PROGRAMS,
  SERVER,
  type Settings,
} from '../../../loaders/config/settings.js';
import type { Program } from '../../../loaders/config/settings.js';
import { DEFAULT_SEED } from '../../../loaders/demo/index.js';
import { DEFAULT_AS_OF_CACHE_MB, DEFAULT_KLINE_TEXT_CACHE_MB } from '../../../transport/caches/caches.js';
import { DEFAULT_RESPONSE_CACHE } from '../../../transport/caches/response-cache.js';

/** The values `program` reads from `argv` and `env`; fails the test on --help. */
function read<S extends Settings>(program: Program<S>, argv: string[], env: NodeJS.ProcessEnv = {}): Values<S> {
  const r = readSettings(program, argv, env);
  assert.equal(r.help, false, 'not a help request');
  return (r as { values: Values<S> }).values;
}

/** The SettingError's message for `argv`/`env`. */
function problem(program: Program, argv: string[], env: NodeJS.ProcessEnv = {}): string {
  try {
    readSettings(program, argv, env);
  } catch (error) {
    assert.ok(error instanceof SettingError, `a SettingError, not ${String(error)}`);
    return error.message;
  }
  assert.fail(`no error for ${argv.join(' ')} ${JSON.stringify(env)}`);
}

test('with nothing given every server setting has its documented default', () => {
  const v = read(SERVER, []);
  assert.deepEqual(v, {
    port: 8080,
    host: '127.0.0.1',
    snapshot: null,
    state: resolve('./var'),
    keepEditions: 2,
    quotaTz: 'UTC',
    plansFile: null,
    threads: availableParallelism(),
    poolThreads: defaultPoolThreads(),
    screenPoolMinRows: 20000,
    klineTextCacheMb: 256,
    asOfCacheMb: 256,
    responseCacheMb: 64,
    busyPollMs: 0,
    drainGraceMs: 500,
    exportStallS: 600,
    exportsPerKey: 4,
    streamIdleSeconds: 60,
    corsOrigins: '*',
    adminOrigin: null,
    smtpUrl: null,
    redisUrl: null,
    mailFrom: 'market-data-service@localhost',
    accessLog: false,
    metrics: true,
    logLevel: 'info',
  });
});

test('declared defaults are the ones the code falls back to', () => {
  const v = read(SERVER, []);
  assert.equal(v.screenPoolMinRows, DEFAULT_MIN_SCREEN_ROWS);
  assert.equal(v.responseCacheMb * 1024 * 1024, DEFAULT_RESPONSE_CACHE.budgetBytes);
  assert.equal(v.klineTextCacheMb, DEFAULT_KLINE_TEXT_CACHE_MB);
  assert.equal(v.asOfCacheMb, DEFAULT_AS_OF_CACHE_MB);
  assert.equal(v.poolThreads, defaultPoolThreads());
  assert.equal(read(GEN_DEMO, []).seed, DEFAULT_SEED);
});

test('a flag wins over its variable, and a variable over the default', () => {
  assert.equal(read(SERVER, ['--port', '9000'], { PORT: '9001' }).port, 9000);
  assert.equal(read(SERVER, [], { PORT: '9001' }).port, 9001);
  assert.equal(read(SERVER, ['--port=9002']).port, 9002);
});

test('an empty variable is unset', () => {
  assert.equal(read(SERVER, [], { PORT: '', STATE_DIR: '' }).port, 8080);
  assert.equal(read(SERVER, [], { STATE_DIR: '' }).state, resolve('./var'));
});

test('a switch needs no value; =off and the variable turn it off', () => {
  assert.equal(read(SERVER, ['--access-log']).accessLog, true);
  assert.equal(read(SERVER, ['--metrics=off']).metrics, false);
  assert.equal(read(SERVER, [], { METRICS: '0' }).metrics, false);
  assert.equal(read(SERVER, [], { ACCESS_LOG: '1' }).accessLog, true);
});

test('an unknown flag is named, with the closest known one', () => {
  assert.equal(problem(SERVER, ['--prot', '1']), 'unknown flag --prot (did you mean --port?); --help lists the flags');
  assert.equal(problem(SERVER, ['--frobnicate']), 'unknown flag --frobnicate; --help lists the flags');
  assert.equal(problem(SERVER, ['-p', '1']), "unknown flag '-p'; --help lists the flags");
  assert.equal(
    problem(SERVER, ['--a\nb']),
    'unknown flag --a\\x0ab; --help lists the flags',
    'one line even for a flag with a line break',
  );
});

test('bad values name the flag or variable they came from and echo the value on one line', () => {
  assert.equal(
    problem(SERVER, [], { QUOTA_TZ: 'Mars/Base' }),
    "QUOTA_TZ must be an IANA time zone such as UTC, Asia/Shanghai or America/New_York, got 'Mars/Base'",
  );
  assert.equal(
    problem(SERVER, [], { POOL_THREADS: '-1' }),
    "POOL_THREADS must be a whole number from 1 to 256, got '-1'",
  );
  assert.equal(
    problem(SERVER, [], { RESPONSE_CACHE_MB: 'abc' }),
    "RESPONSE_CACHE_MB must be a whole number from 0 to 65536, got 'abc'",
  );
  assert.equal(problem(SERVER, ['--port', '1.5']), "--port must be a whole number from 0 to 65535, got '1.5'");
  assert.equal(
    problem(SERVER, [], { HOST: 'a\nb' }),
    "HOST must be an IP address (127.0.0.1, 0.0.0.0, ::) or a host name, got 'a\\x0ab'",
  );
});

test('a missing snapshot folder and a state path that is a file are refused', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'mdq-settings-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'file'), '');
  assert.equal(
    problem(SERVER, ['--snapshot', '/nonexistent']),
    "--snapshot must be an existing folder (no such folder), got '/nonexistent'",
  );
  assert.equal(
    problem(SERVER, ['--snapshot', join(dir, 'file')]),
    `--snapshot must be a folder, not a file, got '${join(dir, 'file')}'`,
  );
  assert.equal(
    problem(SERVER, [], { STATE_DIR: join(dir, 'file') }),
    `STATE_DIR must be a folder, not a file, got '${join(dir, 'file')}'`,
  );
  assert.equal(
    read(SERVER, ['--state', join(dir, 'new')]).state,
    join(dir, 'new'),
    'a missing state folder is fine: it is made',
  );
});

test('a secret is never echoed', () => {
  const message = problem(SERVER, [], { SMTP_URL: 'http://user:hunter2@mail.example' });
  assert.ok(message.startsWith('SMTP_URL must be'), message);
  assert.ok(!message.includes('hunter2'), 'no password in the message');
});

test('SMTP_URL has no flag', () => {
  assert.match(problem(SERVER, ['--smtp-url', 'smtp://x']), /^unknown flag --smtp-url/);
});

test('a flag given twice, a flag without its value and an extra argument are refused', () => {
  assert.equal(problem(SERVER, ['--port', '1', '--port', '2']), '--port is given twice');
  assert.equal(problem(SERVER, ['--port']), '--port needs a value (whole number 0–65535)');
  assert.equal(problem(SERVER, ['--snapshot', '--port', '1']), '--snapshot needs a value (existing folder)');
  assert.match(problem(SERVER, ['serve']), /^unexpected argument 'serve'; usage: npm start/);
});

test('arguments are counted and checked like settings', () => {
  assert.match(problem(LOAD, []), /^missing argument; usage: npm run load/);
  assert.equal(
    problem(LOAD, ['/nonexistent']),
    "<snapshot folder> must be an existing folder (no such folder), got '/nonexistent'",
  );
  assert.deepEqual(
    (readSettings(KEYS, ['disable', 'abc', '--state', '/tmp/x'], {}) as { positionals: string[] }).positionals,
    ['disable', 'abc'],
  );
  assert.deepEqual(
    (readSettings(KEYS, ['--', '--not-a-flag'], {}) as { positionals: string[] }).positionals,
    ['--not-a-flag'],
    'after -- everything is an argument',
  );
});

test('--help and -h ask for the help, wherever they are', () => {
  assert.deepEqual(readSettings(SERVER, ['--port', '1', '--help'], {}), { help: true });
  assert.deepEqual(readSettings(KEYS, ['-h'], {}), { help: true });
});

test("every program's help lists each of its settings' flag, variable and doc", () => {
  for (const program of PROGRAMS) {
    const help = helpText(program);
    for (const s of Object.values(program.settings)) {
      if (s.flag !== null) assert.ok(help.includes(`--${s.flag}`), `${program.name} --help lists --${s.flag}`);
      if (s.env !== null) assert.ok(help.includes(s.env), `${program.name} --help lists ${s.env}`);
      assert.ok(help.includes(s.doc), `${program.name} --help explains ${s.env ?? s.flag}`);
    }
  }
});

test('flags and variables are unique across the declarations', () => {
  const envs = ALL_SETTINGS.flatMap((s) => (s.env === null ? [] : [s.env]));
  assert.equal(new Set(envs).size, envs.length, 'no variable declared twice');
  for (const program of PROGRAMS) {
    const flags = Object.values(program.settings).flatMap((s) => (s.flag === null ? [] : [s.flag]));
    assert.equal(new Set(flags).size, flags.length, `${program.name}: no flag declared twice`);
    assert.ok(!flags.includes('help'), `${program.name}: --help stays free`);
  }
});

test('every default is itself a valid value', () => {
  for (const s of ALL_SETTINGS) {
    if (s.default === null) continue;
    const text = typeof s.default === 'function' ? s.default() : s.default;
    assert.doesNotThrow(() => s.kind.parse(text), `${s.env ?? s.flag}'s default '${text}' fits its kind`);
  }
});
