// /metrics (Prometheus text, checked by promtool), /livez, /readyz, /version, and the access
// log: counters move by exactly the requests made, and every access line matches its answer.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Dataset } from '../../../engine/dataset/dataset.js';
import { AccessLog } from '../../../transport/log.js';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';
import { tempDir } from '../../helpers/snapshot-folder.js';
import { needsCommand } from '../../helpers/system-command.js';

/** What the test server's logger was told. */
const lines: { level: string; fields: Record<string, unknown>; msg: string }[] = [];
const recorder = {
  info: (fields: object, msg: string) =>
    void lines.push({ level: 'info', fields: fields as Record<string, unknown>, msg }),
  error: (fields: object, msg: string) =>
    void lines.push({ level: 'error', fields: fields as Record<string, unknown>, msg }),
};
/** What the access log wrote, as parsed lines. */
const accessText: string[] = [];
const accessLines = (): Record<string, unknown>[] =>
  accessText
    .join('')
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as Record<string, unknown>);
const accessLog = new AccessLog({ write: (text: string) => accessText.push(text) });
const reloadCounts = { loaded: 2, unchanged: 1, rejected: 1, failed: 0 };

let server: TestServer;
before(async () => {
  server = await startTestServer({
    logger: recorder,
    accessLog,
    service: { version: '9.8.7', commit: 'abc1234' },
    metrics: { reloads: () => ({ counts: reloadCounts, lastSeconds: 1.25 }), poolQueue: () => 3 },
  });
});
after(() => server.close());

const KLINES_ROUTE = '/api/v1/:market/klines/:symbol';

/** The exposition as `name{label="v",…}` (labels sorted) → value. */
function parseExposition(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    assert.ok(m !== null, `a sample line: ${line}`);
    const labels =
      m[2] === undefined
        ? []
        : [...m[2].matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => `${k}="${v}"`).sort();
    series.set(`${m[1]}{${labels.join(',')}}`, Number(m[3]));
  }
  return series;
}
const seriesName = (name: string, labels: Record<string, string>): string =>
  `${name}{${Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .sort()
    .join(',')}}`;

async function scrape(): Promise<{ text: string; series: Map<string, number> }> {
  const res = await server.get('/metrics', { key: null });
  assert.equal(res.status, 200);
  assert.equal(res.headers['content-type'], 'text/plain; version=0.0.4; charset=utf-8');
  return { text: res.text, series: parseExposition(res.text) };
}

test('/metrics passes promtool check metrics', async (t) => {
  if (!needsCommand(t, 'promtool', 'prometheus')) return;
  await server.get('/api/v1/ashare/klines/sh600001?limit=2'); // at least one series of each request metric
  const { text } = await scrape();
  const dir = await tempDir('mdq-metrics-');
  try {
    const file = join(dir.path, 'metrics.txt');
    await writeFile(file, text);
    const run = spawnSync('sh', ['-c', `promtool check metrics < "${file}"`], { encoding: 'utf8' });
    assert.equal(run.status, 0, `promtool: ${run.stdout}${run.stderr}`);
    assert.equal(`${run.stdout}${run.stderr}`.trim(), '', 'no lint finding');
  } finally {
    await dir.cleanup();
  }
});

test('request counters, rows, latency and cache lookups move by exactly the requests made', async () => {
  const before = (await scrape()).series;
  const path = '/api/v1/ashare/klines/sh600001?limit=3&fields=close';
  const first = await server.get(path);
  const second = await server.get(path);
  const third = await server.get(path); // kept since the second ask: a cache hit
  const revalidated = await server.get(path, { headers: { 'if-none-match': third.headers.etag as string } });
  const noKey = await server.get(path, { key: null });
  const freeAnswer = await server.get('/api/v1/ashare/klines/sh600001?limit=2', { key: server.keys.free });
  assert.deepEqual(
    [first, second, third, revalidated, noKey, freeAnswer].map((r) => r.status),
    [200, 200, 200, 304, 401, 200],
  );
  const after = (await scrape()).series;
  const delta = (name: string, labels: Record<string, string>): number =>
    (after.get(seriesName(name, labels)) ?? 0) - (before.get(seriesName(name, labels)) ?? 0);

  assert.equal(delta('mdq_http_requests_total', { route: KLINES_ROUTE, status: '200', plan: 'pro' }), 3);
  assert.equal(delta('mdq_http_requests_total', { route: KLINES_ROUTE, status: '304', plan: 'pro' }), 1);
  assert.equal(delta('mdq_http_requests_total', { route: KLINES_ROUTE, status: '401', plan: 'none' }), 1);
  assert.equal(delta('mdq_http_requests_total', { route: KLINES_ROUTE, status: '200', plan: 'free' }), 1);
  assert.equal(
    delta('mdq_rows_served_total', { route: KLINES_ROUTE, plan: 'pro' }),
    9,
    'three 200s of 3 rows; the 304 charges none',
  );
  assert.equal(delta('mdq_rows_served_total', { route: KLINES_ROUTE, plan: 'free' }), 2);
  assert.equal(delta('mdq_http_request_duration_seconds_count', { route: KLINES_ROUTE }), 6);
  assert.equal(delta('mdq_http_request_duration_seconds_bucket', { route: KLINES_ROUTE, le: '+Inf' }), 6);
  assert.equal(
    delta('mdq_http_requests_total', { route: '/metrics', status: '200', plan: 'none' }),
    1,
    'the scrape before counts itself once done',
  );
  // Lookups: the keyed 200s and the 304 look the cache up (the 401 never gets there): 1st and 2nd miss, 3rd and the 304 hit, the free one misses.
  assert.equal(delta('mdq_answer_cache_lookups_total', { result: 'miss' }), 3);
  assert.equal(delta('mdq_answer_cache_lookups_total', { result: 'hit' }), 2);
});

test('/metrics carries the data version, build, reloads, pool queue and event-loop delay', async () => {
  const { series } = await scrape();
  assert.equal(series.get(seriesName('mdq_data_info', { version: server.dataset.version })), 1);
  assert.equal(series.get(seriesName('mdq_build_info', { version: '9.8.7', commit: 'abc1234' })), 1);
  assert.equal(series.get(seriesName('mdq_reloads_total', { result: 'loaded' })), 2);
  assert.equal(series.get(seriesName('mdq_reloads_total', { result: 'rejected' })), 1);
  assert.equal(series.get('mdq_reload_last_duration_seconds{}'), 1.25);
  assert.equal(series.get('mdq_pool_queue_length{}'), 3);
  for (const stat of ['p50', 'p99', 'max'])
    assert.ok(series.get(seriesName('mdq_event_loop_delay_seconds', { stat }))! >= 0, `event-loop delay ${stat}`);
  assert.ok(series.get('mdq_process_resident_memory_bytes{}')! > 10_000_000, 'resident memory');
});

test('/livez, /readyz and /version answer without a key; /readyz follows readiness', async () => {
  const live = await server.get('/livez', { key: null });
  assert.equal(live.status, 200);
  assert.deepEqual(live.body, { status: 'ok' });
  const ready = await server.get('/readyz', { key: null });
  assert.equal(ready.status, 200);
  assert.deepEqual(ready.body, { status: 'ok', data_version: server.dataset.version, usage_durable: true });
  const version = await server.get('/version', { key: null });
  assert.deepEqual(version.body, {
    version: '9.8.7',
    commit: 'abc1234',
    node: process.version,
    data_version: server.dataset.version,
  });
  server.state.draining = true;
  try {
    const draining = await server.get('/readyz', { key: null });
    assert.equal(draining.status, 503);
    assert.equal(draining.body.code, 'shutting_down');
    assert.equal((await server.get('/livez', { key: null })).status, 200, 'still alive while draining');
  } finally {
    server.state.draining = false;
  }
});

test('one access line per answer: route, status, plan, key id (never the key), rows, bytes, µs, request id', async () => {
  accessLog.flush();
  const from = accessLines().length;
  const ok = await server.get('/api/v1/ashare/klines/sh600001?limit=4', {
    key: server.keys.enterprise,
    headers: { 'x-request-id': 'desk-"42"' },
  });
  const missing = await server.get('/api/v1/ashare/klines/nope', { key: server.keys.enterprise });
  const unmatched = await server.get('/nowhere', { key: null });
  accessLog.flush();
  const access = accessLines().slice(from);
  assert.equal(access.length, 3, 'one line per answer');
  const keyId = server.keys.enterprise.split('_')[1];
  for (const line of access) {
    assert.equal(line.level, 'info');
    assert.equal(line.msg, 'access');
    assert.ok(Math.abs(Date.parse(line.time as string) - Date.now()) < 60_000, `an ISO time: ${line.time}`);
    assert.ok(Number.isInteger(line.us) && (line.us as number) >= 0, 'whole microseconds');
  }
  const { level, time, us, msg, ...first } = access[0];
  assert.deepEqual(first, {
    request_id: 'desk-"42"',
    route: KLINES_ROUTE,
    status: 200,
    plan: 'enterprise',
    key_id: keyId,
    rows: 4,
    bytes: Buffer.byteLength(ok.text),
  });
  assert.equal(access[1].status, 404);
  assert.equal(access[1].rows, 0);
  assert.equal(access[1].request_id, missing.headers['x-request-id']);
  assert.equal(access[1].bytes, Buffer.byteLength(missing.text));
  assert.deepEqual(
    [access[2].route, access[2].status, access[2].plan, access[2].key_id],
    ['unmatched', 404, 'none', null],
  );
  assert.equal(access[2].request_id, unmatched.headers['x-request-id']);
  const everything = accessText.join('') + JSON.stringify(lines);
  for (const key of Object.values(server.keys))
    assert.ok(!everything.includes(key.split('_')[2]), 'no key secret ever logged');
});

test('an unexpected exception is logged once at error level with its request id and stack', async () => {
  const from = lines.length;
  const served = server.state.dataset;
  server.state.dataset = { version: 'broken' } as unknown as Dataset; // no markets: the handler throws a TypeError
  try {
    const res = await server.get('/api/v1/markets', { headers: { 'x-request-id': 'req-boom' } });
    assert.equal(res.status, 500);
    assert.equal(res.body.instance, 'req-boom');
  } finally {
    server.state.dataset = served;
  }
  const errors = lines.slice(from).filter((l) => l.level === 'error');
  assert.equal(errors.length, 1);
  assert.equal(errors[0].msg, 'internal error');
  assert.equal(errors[0].fields.request_id, 'req-boom');
  assert.equal(errors[0].fields.route, '/api/v1/markets');
  assert.match(String((errors[0].fields.err as { stack: string }).stack), /^TypeError: .*\n\s+at /);
});
