// PLANS_FILE on the real server and keys command: a bad file or a key of a plan not in force
// exits 2 with one line; a file's plans and changed figures are what the limits, /quota,
// clamping, batches, /metrics, the dashboard and the OpenAPI document use, on every thread.

import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type ApiResponse, httpRequest } from '../helpers/api-server.js';
import { fixtureCopy } from '../helpers/fixture-copy.js';
import { assertOneLineExit2, run } from '../helpers/program-run.js';
import { MAIN_JS, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const KEYS_JS = fileURLToPath(new URL('../../loaders/cli/keys.js', import.meta.url));

/** The plans of the tests: two added (`gold` small in every way, `burst` 3 a minute and no quota) and free changed. */
const PLANS = {
  gold: { rpm: 1000, daily_quota: 20, batch: 2, rows_per_call: 3 },
  burst: { rpm: 3, daily_quota: null, batch: 50, rows_per_call: 500 },
  free: { rpm: 7, daily_quota: 5000, batch: 5, rows_per_call: 4 },
};

type Dir = Awaited<ReturnType<typeof tempDir>>;

/** Writes `text` as `name` in `dir`; returns its path. */
function file(dir: Dir, name: string, text: string): string {
  const path = join(dir.path, name);
  writeFileSync(path, text);
  return path;
}

/** A new key of `plan` made by the keys command (given `plansFile` when set); returns the key. */
function newKey(state: string, plan: string, plansFile: string | null): string {
  const r = run(
    KEYS_JS,
    ['create', '--plan', plan, '--org', `${plan} desk`, '--state', state],
    plansFile === null ? {} : { PLANS_FILE: plansFile },
  );
  assert.equal(r.code, 0, r.stderr);
  const key = r.stdout.trim().split('\n').at(-1)!;
  assert.match(key, /^mdq_/, 'the key alone on the last line');
  return key;
}

const idOf = (key: string): string => key.split('_')[1];
const h = (res: ApiResponse, name: string): string | undefined => res.headers[name] as string | undefined;
const get = (s: ServerProcess, path: string, key: string): Promise<ApiResponse> =>
  httpRequest(s.port, path, { headers: { 'x-api-key': key } });

function assertProblem(res: ApiResponse, status: number, code: string, what: string): void {
  assert.equal(res.status, status, `${what}: ${res.text}`);
  assert.equal(res.body?.code, code, what);
}

describe('a bad plans file: exit 2 with one line naming the file and the line, before any work', () => {
  let dir: Dir;
  let empty: Dir;
  before(async () => {
    dir = await tempDir('mdq-plans-bad-');
    empty = await tempDir('mdq-plans-empty-');
  });
  after(async () => {
    await dir.cleanup();
    await empty.cleanup();
  });

  const GOLD = '"rpm": 5, "daily_quota": 20, "batch": 2, "rows_per_call": 3';
  /** Each kind of mistake: the file, the line the message must name, and what it says there. */
  const CASES: [string, string, number, string][] = [
    ['not JSON', `{\n  "gold": {${GOLD}},\n}\n`, 3, 'not JSON: expected a member name in double quotes'],
    ['the wrong type of document', '[]\n', 1, 'expected one JSON object of plan name'],
    [
      'a wrong type of figure',
      `{\n  "gold": {\n    "rpm": "fast",\n    "daily_quota": 20, "batch": 2, "rows_per_call": 3\n  }\n}\n`,
      3,
      `plan 'gold': rpm must be a whole number from 1 to 1,000,000 or null (never limited), got "fast"`,
    ],
    [
      'a figure out of range',
      `{\n  "free": {"rpm": 30, "daily_quota": 5000, "batch": 5, "rows_per_call": 100},\n  "gold": {"rpm": 5, "daily_quota": 20, "batch": 0, "rows_per_call": 3}\n}\n`,
      3,
      `plan 'gold': batch must be a whole number from 1 to 1,000, got 0`,
    ],
    ['an unknown field', `{\n  "gold": {${GOLD},\n    "burst": 10}\n}\n`, 3, `plan 'gold': unknown field 'burst'`],
    ['a missing field', '{\n  "gold": {"rpm": 5}\n}\n', 2, `plan 'gold' lacks daily_quota, batch, rows_per_call`],
    ['a bad plan name', `{\n  "Gold Plan": {${GOLD}}\n}\n`, 2, `plan name 'Gold Plan' must be a lower-case letter`],
    ['a built-in plan removed', '{\n\n  "pro": null\n}\n', 3, `plan 'pro' must be an object`],
  ];

  for (const [what, text, line, says] of CASES) {
    test(`${what}: "PLANS_FILE <file>:${line}: …"`, () => {
      const path = file(dir, `${what.replace(/\W+/g, '-')}.json`, text);
      const state = join(dir.path, 'state');
      const r = run(MAIN_JS, ['--state', state, '--port', '0'], { PLANS_FILE: path, SNAPSHOT_DIR: empty.path });
      const message = assertOneLineExit2(r, what);
      assert.ok(message.startsWith(`mdq: PLANS_FILE ${path}:${line}: ${says}`), message);
      assert.ok(r.ms < 2000, `exits at once (took ${r.ms.toFixed(0)} ms)`);
      assert.ok(!readdirSync(dir.path).includes('state'), 'no state folder made');
    });
  }

  test('the flag is named when the file comes from --plans-file', () => {
    const path = file(dir, 'flag.json', '{\n  "gold": 5\n}\n');
    const message = assertOneLineExit2(
      run(MAIN_JS, ['--state', join(dir.path, 'state'), '--plans-file', path], { SNAPSHOT_DIR: empty.path }),
      '--plans-file',
    );
    assert.ok(message.startsWith(`mdq: --plans-file ${path}:2: plan 'gold' must be an object`), message);
  });

  test('an unreadable file (none there, a folder) names the file', () => {
    for (const path of [join(dir.path, 'none.json'), empty.path]) {
      const message = assertOneLineExit2(
        run(MAIN_JS, ['--state', join(dir.path, 'state')], { PLANS_FILE: path, SNAPSHOT_DIR: empty.path }),
        path,
      );
      assert.match(
        message,
        /^mdq: PLANS_FILE must be (a readable file \(no such file\)|a file, not a folder), got '.+'$/,
      );
      assert.ok(message.includes(path), message);
    }
  });

  test('the keys command refuses a bad file the same way', () => {
    const path = file(
      dir,
      'keys.json',
      '{\n  "gold": {"rpm": 0, "daily_quota": 20, "batch": 2, "rows_per_call": 3}\n}\n',
    );
    const message = assertOneLineExit2(
      run(KEYS_JS, ['list', '--state', join(dir.path, 'keys-state')], { PLANS_FILE: path }),
      'keys list',
    );
    assert.ok(message.startsWith(`keys: PLANS_FILE ${path}:2: plan 'gold': rpm must be`), message);
  });
});

describe('a stored key whose plan is not in force: exit 2 naming the key and the plan, before the data load', () => {
  let dir: Dir;
  /** A snapshot folder the data load rejects at once (exit 1): an exit 2 shows the check came first. */
  let rejected: Dir;
  let state: string;
  let gold: string;
  let withGold: string;
  before(async () => {
    dir = await tempDir('mdq-plans-lost-');
    rejected = await tempDir('mdq-plans-rejected-');
    mkdirSync(join(rejected.path, 'nosuchmarket'));
    withGold = file(dir, 'with-gold.json', JSON.stringify({ gold: PLANS.gold }, null, 2));
    state = join(dir.path, 'state');
    gold = newKey(state, 'gold', withGold);
  });
  after(async () => {
    await dir.cleanup();
    await rejected.cleanup();
  });

  test('without PLANS_FILE', () => {
    const message = assertOneLineExit2(
      run(MAIN_JS, ['--state', state, '--port', '0'], { SNAPSHOT_DIR: rejected.path }),
      'no file',
    );
    assert.equal(
      message,
      `mdq: key ${idOf(gold)} has plan 'gold', but no PLANS_FILE is given (only the built-in plans are in force): give the file that defines it, or move the key with npm run keys -- set-plan ${idOf(gold)} <plan>`,
    );
  });

  test('with a PLANS_FILE that lacks the plan', () => {
    const other = file(dir, 'without-gold.json', JSON.stringify({ burst: PLANS.burst }));
    const message = assertOneLineExit2(
      run(MAIN_JS, ['--state', state, '--port', '0'], { SNAPSHOT_DIR: rejected.path, PLANS_FILE: other }),
      'other file',
    );
    assert.ok(
      message.startsWith(`mdq: key ${idOf(gold)} has plan 'gold', but PLANS_FILE ${other} does not define it`),
      message,
    );
  });

  test('the keys command without the file refuses the plan, and set-plan with a built-in plan mends the key', () => {
    const refused = assertOneLineExit2(
      run(KEYS_JS, ['create', '--plan', 'gold', '--state', state]),
      'create gold without the file',
    );
    assert.match(refused, /^keys: --plan must be one of free, pro, enterprise, internal, got 'gold'/);
    assert.equal(run(KEYS_JS, ['set-plan', idOf(gold), 'pro', '--state', state]).code, 0);
    const r = run(MAIN_JS, ['--state', state, '--port', '0'], { SNAPSHOT_DIR: rejected.path });
    assert.equal(r.code, 1, 'past the check: the rejected snapshot folder is what stops it now');
    assert.match(r.stderr, /snapshot rejected/);
  });
});

describe('plans of a file, end to end', () => {
  let dir: Dir;
  let server: ServerProcess;
  let plansFile: string;
  const keys: Record<string, string> = {};

  before(async () => {
    dir = await tempDir('mdq-plans-e2e-');
    const snapshot = await fixtureCopy(join(dir.path, 'snapshot'));
    plansFile = file(dir, 'plans.json', JSON.stringify(PLANS, null, 2));
    const state = join(dir.path, 'state');
    // The keys command, given the same file, makes keys of its plans.
    for (const [name, plan] of [
      ['gold', 'gold'],
      ['goldQuota', 'gold'],
      ['burst', 'burst'],
      ['free', 'free'],
      ['pro', 'pro'],
    ])
      keys[name] = newKey(state, plan, plansFile);
    server = await startServerProcess({ snapshot, state, env: { PLANS_FILE: plansFile, THREADS: '1' } });
  });
  after(async () => {
    await server?.kill();
    await dir?.cleanup();
  });

  test("/quota shows the file's plan and its daily quota", async () => {
    const res = await get(server, '/api/v1/quota', keys.gold);
    assert.equal(res.status, 200, res.text);
    assert.deepEqual([res.body.plan, res.body.daily_quota, res.body.used, res.body.remaining], ['gold', 20, 0, 20]);
    assert.equal(h(res, 'x-ratelimit-limit'), '1000');
    assert.equal(h(res, 'x-quota-limit'), '20');
  });

  test("a limit above the plan's 3 rows per call is clamped to 3 and shown in `limit` (K-lines, batch K-lines, screen)", async () => {
    for (const path of ['/api/v1/ashare/klines/sh600001?limit=10', '/api/v1/ashare/screen?limit=10']) {
      const res = await get(server, path, keys.gold);
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.limit, 3, `${path}: limit shown`);
      assert.equal(res.body.count, 3, `${path}: rows answered`);
    }
    const batch = await get(server, '/api/v1/ashare/klines?symbols=sh600001,sz000003&limit=10', keys.gold);
    assert.equal(batch.status, 200, batch.text);
    assert.equal(batch.body.limit, 3);
    assert.deepEqual(
      Object.values(batch.body.data).map((rows: any) => rows.length),
      [3, 3],
    );
  });

  test("more symbols than the plan's batch size of 2 is 400 batch_too_large; 2 pass", async () => {
    assertProblem(
      await get(server, '/api/v1/ashare/klines?symbols=sh600001,sz000003,sz000004', keys.gold),
      400,
      'batch_too_large',
      'three symbols',
    );
    assertProblem(
      await get(server, '/api/v1/ashare/detail?symbols=sh600001,sz000003,sz000004', keys.gold),
      400,
      'batch_too_large',
      'three snapshots',
    );
    assert.equal((await get(server, '/api/v1/ashare/detail?symbols=sh600001,sz000003', keys.gold)).status, 200);
  });

  test('the daily quota of 20 rows: charged 3 a request, the 7th still served (18 used before it), the 8th 429 quota_exhausted', async () => {
    for (let i = 1; i <= 7; i++) {
      const res = await get(server, '/api/v1/ashare/klines/sh600001?limit=3', keys.goldQuota);
      assert.equal(res.status, 200, `request ${i}: ${res.text}`);
      assert.equal(h(res, 'x-quota-limit'), '20');
      assert.equal(h(res, 'x-quota-remaining'), String(Math.max(0, 20 - 3 * i)), `rows left after request ${i}`);
    }
    assertProblem(
      await get(server, '/api/v1/ashare/klines/sh600001?limit=3', keys.goldQuota),
      429,
      'quota_exhausted',
      'request 8',
    );
    const quota = (await get(server, '/api/v1/quota', keys.goldQuota)).body;
    assert.deepEqual([quota.plan, quota.daily_quota, quota.used, quota.remaining], ['gold', 20, 21, 0]);
  });

  test('3 requests a minute: the 4th immediate request is 429 rate_limited; no quota headers (null: never limited)', async () => {
    for (let i = 1; i <= 3; i++) {
      const res = await get(server, '/api/v1/markets', keys.burst);
      assert.equal(res.status, 200, `request ${i}`);
      assert.equal(h(res, 'x-ratelimit-limit'), '3');
      assert.equal(h(res, 'x-ratelimit-remaining'), String(3 - i));
      assert.equal(h(res, 'x-quota-limit'), undefined, 'no quota, no quota header');
    }
    const refused = await get(server, '/api/v1/markets', keys.burst);
    assertProblem(refused, 429, 'rate_limited', 'request 4');
    assert.equal(h(refused, 'retry-after'), '20', '3 a minute: a token every 20 s');
  });

  test("a built-in plan the file changes has the file's figures: free at 7 a minute and 4 rows a call; pro keeps the spec's", async () => {
    for (let i = 1; i <= 7; i++) {
      const res = await get(server, '/api/v1/ashare/klines/sh600001?limit=10', keys.free);
      assert.equal(res.status, 200, `request ${i}: ${res.text}`);
      assert.equal(h(res, 'x-ratelimit-limit'), '7');
      assert.equal(res.body.limit, 4, 'clamped to 4');
    }
    assertProblem(await get(server, '/api/v1/markets', keys.free), 429, 'rate_limited', 'request 8');
    const pro = await get(server, '/api/v1/ashare/klines/sh600001?limit=1000', keys.pro);
    assert.deepEqual([h(pro, 'x-ratelimit-limit'), h(pro, 'x-quota-limit'), pro.body.limit], ['120', '200000', 500]);
  });

  test("/metrics counts requests under the file's plan names", async () => {
    const text = (await httpRequest(server.port, '/metrics')).text;
    assert.match(text, /^mdq_http_requests_total\{route="\/api\/v1\/quota",status="200",plan="gold"\} \d+$/m);
    assert.match(text, /^mdq_http_requests_total\{route="\/api\/v1\/markets",status="429",plan="burst"\} 1$/m);
    assert.match(text, /^mdq_rows_served_total\{route="\/api\/v1\/:market\/klines\/:symbol",plan="gold"\} \d+$/m);
  });

  test('the OpenAPI description lists the plans in force with their figures', async () => {
    const doc = (await httpRequest(server.port, '/api/v1/openapi.json')).body;
    const description = String(doc.info.description);
    for (const line of [
      '- `free`: 5000 / 7 / 5 / 4',
      '- `pro`: 200000 / 120 / 50 / 500',
      '- `gold`: 20 / 1000 / 2 / 3',
      '- `burst`: unlimited / 3 / 50 / 500',
    ])
      assert.ok(description.includes(line), line);
  });

  test("the dashboard lists the plans in force with their figures, and makes a key of a file's plan", async () => {
    const password = /operator password .*: (\S+)$/.exec(server.log.find((l) => l.includes('operator password'))!)![1];
    const origin = `http://127.0.0.1:${server.port}`;
    const signIn = await httpRequest(server.port, '/admin/api/sign-in', {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ password }),
    });
    assert.equal(signIn.status, 200, signIn.text);
    const cookie = String(([] as string[]).concat(signIn.headers['set-cookie'] ?? [])[0]).split(';')[0];
    const page = await httpRequest(server.port, '/admin/api/keys', { headers: { origin, cookie } });
    assert.deepEqual(
      page.body.plans.map((p: any) => p.name),
      ['free', 'pro', 'enterprise', 'internal', 'gold', 'burst'],
    );
    assert.deepEqual(
      page.body.plans.find((p: any) => p.name === 'gold'),
      { name: 'gold', ...PLANS.gold, export_rows: 0, connections: 1, subscriptions: 5 }, // left out: no exports, the free plan's stream limits
    );
    assert.equal(page.body.keys.find((k: any) => k.id === idOf(keys.gold)).plan, 'gold');
    const write = (body: object) =>
      httpRequest(server.port, '/admin/api/keys', {
        method: 'POST',
        headers: { origin, cookie, 'x-csrf-token': String(signIn.body.csrf), 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const made = await write({ plan: 'burst', org: 'Desk B' });
    assert.equal(made.status, 200, made.text);
    assert.equal(made.body.record.plan, 'burst');
    assertProblem(await write({ plan: 'platinum' }), 400, 'invalid_parameter', 'a plan not in force');
  });
});

describe('THREADS=2: the file is in force on both serving threads', () => {
  let dir: Dir;
  let server: ServerProcess;
  let wide: string;
  let burst: string;

  before(async () => {
    dir = await tempDir('mdq-plans-threads-');
    const snapshot = await fixtureCopy(join(dir.path, 'snapshot'));
    // `wide`: no quota and a high rate, so that many requests can show the small batch and rows per call.
    const plansFile = file(
      dir,
      'plans.json',
      JSON.stringify({ ...PLANS, wide: { rpm: 100_000, daily_quota: null, batch: 2, rows_per_call: 3 } }),
    );
    const state = join(dir.path, 'state');
    wide = newKey(state, 'wide', plansFile);
    burst = newKey(state, 'burst', plansFile);
    server = await startServerProcess({
      snapshot,
      state,
      env: { PLANS_FILE: plansFile, THREADS: '2', ACCESS_LOG: 'on' },
    });
  });
  after(async () => {
    await server?.kill();
    await dir?.cleanup();
  });

  /** The threads that answered `key` so far (access lines). */
  const threadsOf = async (key: string): Promise<number[]> => {
    await new Promise((r) => setTimeout(r, 100)); // access lines are written on the next event turn
    return [
      ...new Set(
        server.logged.filter((l) => l.msg === 'access' && l.key_id === idOf(key)).map((l) => l.thread as number),
      ),
    ].sort();
  };

  test("40 requests on their own connections, answered by both threads: every one clamped to the plan's 3 rows, every batch of 3 symbols refused", async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        httpRequest(server.port, '/api/v1/ashare/klines/sh600001?limit=10', { headers: { 'x-api-key': wide } }),
      ),
    );
    assert.deepEqual(
      answers.map((a) => [a.status, a.body?.limit]),
      Array(40).fill([200, 3]),
      answers.map((a) => a.text.slice(0, 120)).join('\n'),
    );
    const batches = await Promise.all(
      Array.from({ length: 40 }, () =>
        httpRequest(server.port, '/api/v1/ashare/klines?symbols=sh600001,sz000003,sz000004', {
          headers: { 'x-api-key': wide },
        }),
      ),
    );
    assert.deepEqual(
      batches.map((a) => [a.status, a.body?.code]),
      Array(40).fill([400, 'batch_too_large']),
    );
    assert.deepEqual(await threadsOf(wide), [0, 1], 'both threads served the key');
  });

  test('/quota from both threads shows the plan and its figures', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => httpRequest(server.port, '/api/v1/quota', { headers: { 'x-api-key': wide } })),
    );
    assert.deepEqual(
      new Set(answers.map((a) => `${a.status} ${a.body.plan} ${a.body.daily_quota} ${a.headers['x-ratelimit-limit']}`)),
      new Set(['200 wide null 100000']),
    );
  });

  test('3 requests a minute across both threads: of 40 concurrent requests exactly 3 are answered (2, 1, 0 left), 37 refused', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () =>
        httpRequest(server.port, '/api/v1/markets', { headers: { 'x-api-key': burst } }),
      ),
    );
    const ok = answers.filter((a) => a.status === 200);
    assert.equal(ok.length, 3, `statuses: ${answers.map((a) => a.status).join(' ')}`);
    assert.deepEqual(ok.map((a) => Number(a.headers['x-ratelimit-remaining'])).sort(), [0, 1, 2]);
    assert.equal(answers.filter((a) => a.status === 429 && a.body.code === 'rate_limited').length, 37);
    assert.deepEqual(await threadsOf(burst), [0, 1], 'both threads answered the key');
  });
});
