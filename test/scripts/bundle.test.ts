// scripts/bundle.js: dist/main.bundle.js, what `npm start` runs, is the program dist/main.js is: the same answers
// byte for byte, both serving threads, screens on the pool's worker, the store's child process, reloads, /metrics,
// settings checked before anything loads, and every worker or child entry it names exists.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import http from 'node:http';
import { dirname, join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { fixtureCopy, LAST_ROW, LAST_ROW_CLOSE_631 } from '../helpers/fixture-copy.js';
import { assertOneLineExit2, run } from '../helpers/program-run.js';
import { MAIN_BUNDLE, repoint, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
let link: string;
let B: string;
/** dist/main.js: the reference. */
let compiled: ServerProcess;
/** dist/main.bundle.js: two serving threads, every screen of the first on the pool. */
let bundled: ServerProcess;

before(async () => {
  dir = await tempDir('mdq-bundle-');
  const A = await fixtureCopy(join(dir.path, 'A'));
  B = await fixtureCopy(join(dir.path, 'B'), [{ file: 'ashare/klines.csv', from: LAST_ROW, to: LAST_ROW_CLOSE_631 }]);
  link = join(dir.path, 'current');
  await repoint(link, A);
  const started = await Promise.allSettled([
    startServerProcess({ snapshot: link, state: join(dir.path, 'compiled-state'), env: { THREADS: '1' } }),
    startServerProcess({
      entry: MAIN_BUNDLE,
      snapshot: link,
      state: join(dir.path, 'bundled-state'),
      env: { THREADS: '2', POOL_THREADS: '1', SCREEN_POOL_MIN_ROWS: '1', ACCESS_LOG: 'on' },
    }),
  ]);
  // Each one that started is kept, so that `after` ends it when the other failed.
  if (started[0].status === 'fulfilled') compiled = started[0].value;
  if (started[1].status === 'fulfilled') bundled = started[1].value;
  for (const s of started) if (s.status === 'rejected') throw s.reason;
});
after(async () => {
  await Promise.all([compiled?.kill(), bundled?.kill()]);
  await dir?.cleanup();
});

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One GET on its own connection, the body's bytes as sent. */
function get(port: number, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((done, fail) => {
    const req = http.get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', fail);
  });
}

const SAME = [
  '/readyz',
  '/version',
  '/api/v1/markets',
  '/api/v1/macro/indicators',
  '/api/v1/ashare/symbols',
  '/api/v1/ashare/calendar',
  '/api/v1/ashare/klines/sh600001?limit=5&adj=qfq',
  '/api/v1/ashare/klines/600001.SH?limit=5&format=csv',
  '/api/v1/ashare/klines/sh600001?limit=5&format=msgpack',
  '/api/v1/ashare/klines/sh600001?limit=5&format=flatbuffers',
  '/api/v1/ashare/klines/sh600001?limit=5&format=arrow',
  '/api/v1/ashare/klines?symbols=sh600001,sz000002&limit=3',
  '/api/v1/ashare/detail/sh600001',
  '/api/v1/ashare/screen?sort=total_market_cap',
  '/api/v1/hkstock/screen?sort=total_market_cap&format=csv',
  '/api/v1/ashare/klines/sh999999',
  '/api/v1/ashare/klines/sh600001?limit=-1',
  '/api/v1/openapi.json',
  '/api/v1/asyncapi.json',
  '/api/v1/schema.fbs',
  '/docs',
  '/docs/swagger-ui-bundle.js',
  '/dashboard',
];

test("every answer is the compiled modules' answer, byte for byte (status, type, ETag, body)", async () => {
  for (const [i, path] of SAME.entries()) {
    const headers = { 'x-request-id': `bundle-${i}` }; // a problem names it: the same on both
    const [want, got] = await Promise.all([
      get(compiled.port, path, { ...headers, 'x-api-key': compiled.keys.internal! }),
      get(bundled.port, path, { ...headers, 'x-api-key': bundled.keys.internal! }),
    ]);
    assert.equal(got.status, want.status, path);
    assert.equal(got.headers['content-type'], want.headers['content-type'], path);
    assert.equal(got.headers.etag, want.headers.etag, path);
    assert.ok(got.body.equals(want.body), `${path}: the same ${want.body.length} bytes`);
  }
});

test("both serving threads answer, and the first runs every screen on the pool's worker", async () => {
  const path = '/api/v1/ashare/screen?sort=total_market_cap';
  const want = await get(compiled.port, path, { 'x-api-key': compiled.keys.internal! });
  const answers = await Promise.all(
    Array.from({ length: 30 }, () => get(bundled.port, path, { 'x-api-key': bundled.keys.internal! })),
  );
  for (const a of answers) assert.ok(a.status === 200 && a.body.equals(want.body), `status ${a.status}`);
  await new Promise((r) => setTimeout(r, 100)); // access lines are written on the next event turn
  const threads = new Set(
    bundled.logged.filter((l) => l.msg === 'access' && l.route === '/api/v1/:market/screen').map((l) => l.thread),
  );
  assert.deepEqual([...threads].sort(), [0, 1], 'screens answered on both threads (the first through the pool)');
});

test('/metrics answers the exposition (prom-client loaded at the first scrape)', async () => {
  const r = await get(bundled.port, '/metrics');
  assert.equal(r.status, 200);
  const text = r.body.toString();
  assert.match(
    text,
    /^mdq_http_requests_total\{route="\/api\/v1\/:market\/screen",status="200",plan="internal"\} \d+$/m,
  );
  assert.match(text, /^mdq_event_loop_delay_seconds\{stat="max"\} [\d.e-]+$/m);
});

test('SIGHUP: the next edition is stored by its child process and served by both threads', async () => {
  const before = (await get(bundled.port, '/readyz')).headers['x-data-version'];
  await repoint(link, B);
  const from = bundled.log.length;
  bundled.signal('SIGHUP');
  await bundled.waitForLog(/reload: now serving/, 60_000, from);
  const answers = await Promise.all(
    Array.from({ length: 20 }, () =>
      get(bundled.port, '/api/v1/ashare/klines/sh600001?limit=1', { 'x-api-key': bundled.keys.internal! }),
    ),
  );
  for (const a of answers) {
    assert.equal(a.status, 200);
    assert.notEqual(a.headers['x-data-version'], before);
    assert.equal(JSON.parse(a.body.toString()).data[0].close, 6.31);
  }
});

test('a bad setting exits 2 with one line, and --help exits 0', () => {
  assert.equal(
    assertOneLineExit2(run(MAIN_BUNDLE, ['--port', 'x']), '--port x'),
    "mdq: --port must be a whole number from 0 to 65535, got 'x'",
  );
  const help = run(MAIN_BUNDLE, ['--help']);
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^usage: npm start/);
});

test('every worker and child-process entry the bundle names from a module URL is a compiled file', () => {
  const text = readFileSync(MAIN_BUNDLE, 'utf8');
  // `new URL('./worker.js', import.meta.url)` of loaders/demo/index.js reads, in the bundle,
  // `new URL("./worker.js", new URL("./loaders/demo/index.js", import.meta.url).href)`.
  const named = [...text.matchAll(/new URL\(["']([^"']+\.js)["'], new URL\("([^"]+)", import\.meta\.url\)\.href\)/g)];
  const entries = named.map(([, target, module]) => resolve(dirname(resolve(dirname(MAIN_BUNDLE), module)), target));
  for (const name of ['worker.js', 'store-task.js', 'verify-task.js', 'pool-source.js', 'serving-thread.js'])
    assert.ok(
      entries.some((e) => e.endsWith(`/${name}`)),
      `${name} is among ${entries.join(', ')}`,
    );
  for (const entry of entries) assert.ok(existsSync(entry), `${entry} exists`);
});

test("`npm start` runs the bundle as npm's own child: it serves, and a SIGTERM to npm drains it and ends it", async (t) => {
  const root = fileURLToPath(new URL('../../../', import.meta.url));
  const state = join(dir.path, 'npm-state');
  const npm = spawn('npm', ['start', '--', '--snapshot', link, '--state', state, '--port', '0', '--threads', '1'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: ended whole below, a server left behind by a lost signal included
  });
  const ended = new Promise<number | null>((r) => npm.once('exit', (code) => r(code)));
  let out = '';
  npm.stdout!.on('data', (chunk: Buffer) => (out += chunk));
  t.after(() => {
    try {
      process.kill(-npm.pid!, 'SIGKILL');
    } catch {} // every process of the group has ended
  });
  const line = async (pattern: RegExp, ms = 60_000): Promise<string> => {
    for (let waited = 0; waited < ms; waited += 20) {
      const found = out.split('\n').find((l) => pattern.test(l));
      if (found !== undefined) return found;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no line ${pattern} in:\n${out}`);
  };
  const { port } = JSON.parse(await line(/"msg":"Serving /)) as { port: number };
  assert.equal((await get(port, '/readyz')).status, 200);
  npm.kill('SIGTERM'); // as a supervisor stops what it started
  await line(/"msg":"drained; bye"/, 15_000);
  assert.equal(await ended, 0, "npm ends with the server's code (0: drained)");
  await assert.rejects(get(port, '/readyz'), 'nothing listens on the port any more');
});
