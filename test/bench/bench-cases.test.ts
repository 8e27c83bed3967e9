// Every micro-bench case, the pool crossover, the guard bench and every HTTP case, run once at tiny size so the bench cannot rot.

import { POOL_SOURCE_MODULE } from '../../loaders/edition/open-edition.js';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before, test } from 'node:test';
import { generateDemoSnapshot } from '../../loaders/demo/index.js';
import { GUARD_TINY, hotPathLookups, run as runGuard } from '../../bench/cases/guard.js';
import { microCases } from '../../bench/cases/index.js';
import { SCREEN_QUERY } from '../../bench/cases/inputs.js';
import { datasetWith, syntheticTable, TINY_POOL_SIZES } from '../../bench/cases/pool.js';
import { screenAnswer } from '../../bench/cases/screen.js';
import { bodyOf, contextOf, offers, replyOf } from '../../bench/cases/answers.js';
import { decodeCases, LEVEL_QUESTIONS, SIZE_QUESTIONS } from '../../bench/cases/formats.js';
import {
  ALL_CASES,
  checkAnswer,
  FIRST_ASK_CASES,
  FORMAT_CASES,
  pastDay,
  VARIED_CASES,
} from '../../bench/http/cases.js';
import { startChild } from '../../bench/http/children.js';
import { caseContext } from '../../bench/http/comparison.js';
import { POOL_SCREEN, RATIO_TARGETS, UNCACHED_CASES } from '../../bench/http/endpoints.js';
import { httpGet } from '../../bench/http/http-get.js';
import { levelSweep } from '../../bench/micro/levels.js';
import { measureAll, type MicroOptions } from '../../bench/micro/measure.js';
import { poolCrossover } from '../../bench/micro/pool-crossover.js';
import { measureSizes, SIZE_FORMATS } from '../../bench/micro/sizes.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { KernelPool } from '../../engine/pool/pool.js';
import { screen } from '../../engine/queries/screen.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';
import { SCHEMAS } from '../../transport/schemas/responses.js';
import { compress } from '../../transport/serialise/encode.js';
import { startTestServer } from '../helpers/api-server.js';
import { tempDir } from '../helpers/snapshot-folder.js';

/** Two samples of a few calls each: enough for a finite median, far from a measurement. */
const TINY: MicroOptions = { timeMs: 0, warmupMs: 0, minSamples: 2, sampleUs: 5 };

let dataset: Dataset;
let snapshot: string;
/** The tiny demo stored (what the bare server serves). */
let stateDir: string;
let cleanup: () => Promise<void>;

before(async () => {
  const dir = await tempDir('mdq-bench-cases-');
  cleanup = dir.cleanup;
  snapshot = join(dir.path, 'demo');
  await generateDemoSnapshot(snapshot, { symbolScale: 0.01, years: 1, progress: false });
  stateDir = join(dir.path, 'state');
  await storeEdition(snapshot, stateDir, { threads: 0 });
  dataset = (await openCurrentDataset(stateDir))!;
});
after(() => cleanup());

test('every micro case: each variant gives the same answer as the baseline', () => {
  for (const c of microCases(dataset)) {
    const base = c.variants.find((v) => v.name === c.baseline);
    assert.ok(base, `${c.group} / ${c.name} names an existing baseline`);
    const expected = c.answer(base.run());
    for (const v of c.variants)
      assert.deepEqual(c.answer(v.run()), expected, `${c.group} / ${c.name}: '${v.name}' answers as '${c.baseline}'`);
  }
});

test('every micro case yields a finite time per call and ratio for each variant', async () => {
  const figures = await measureAll(microCases(dataset), TINY);
  assert.ok(figures.length > 10, 'K-lines, screen, detail and serialiser cases are all there');
  for (const c of figures) {
    for (const v of c.variants) {
      assert.ok(
        Number.isFinite(v.us) && v.us > 0,
        `${c.group} / ${c.name} / ${v.name}: µs per call is finite and positive (${v.us})`,
      );
      assert.ok(
        Number.isFinite(v.speedup) && v.speedup > 0,
        `${c.group} / ${c.name} / ${v.name}: ratio to the baseline is finite (${v.speedup})`,
      );
    }
  }
});

test('there is one serialiser case per response shape', () => {
  const shapes = microCases(dataset)
    .filter((c) => c.group === 'serialise')
    .map((c) => c.name);
  assert.deepEqual(shapes.sort(), Object.keys(SCHEMAS).sort(), 'each shape of the schemas is benchmarked');
});

test('a screen on the pool answers what the inline screen answers, on the real and a synthetic table', async (t) => {
  const pool = new KernelPool(1, POOL_SOURCE_MODULE);
  t.after(() => pool.close());
  const real = dataset.markets.ashare.snapshots;
  const synthetic = syntheticTable(real, 2_000);
  for (const [name, table, ds] of [
    ['real', real, dataset],
    ['synthetic', synthetic, datasetWith(synthetic, 'test-synthetic')],
  ] as const) {
    assert.deepEqual(
      screenAnswer(await pool.screen(ds, 'ashare', SCREEN_QUERY)),
      screenAnswer(screen(table, SCREEN_QUERY)),
      `${name} table: same total and rows`,
    );
  }
});

test('the pool crossover runs at tiny sizes and reports finite figures and a verdict', async () => {
  const r = await poolCrossover(dataset, TINY_POOL_SIZES, { micro: TINY, runMs: 20, threads: 1 });
  assert.equal(r.points.length, TINY_POOL_SIZES.length, 'one point per size');
  for (const p of r.points) {
    for (const [k, v] of Object.entries(p))
      if (typeof v === 'number') assert.ok(Number.isFinite(v), `${p.name}: ${k} is finite (${v})`);
    assert.ok(p.inlineRps > 0 && p.poolRps > 0, `${p.name}: both modes completed screens`);
  }
  assert.match(
    r.verdict,
    /one screen: .*; screens\/s: .*; main-thread time: /,
    'the verdict covers latency, throughput and main-thread time',
  );
});

test('the guard bench: every lookup finds the same key, and a tiny run gives finite figures', async () => {
  const { keys, lookups } = hotPathLookups();
  const names = Object.keys(lookups);
  for (let i = 0; i < keys.length; i++) {
    const expected = lookups[names[0]](i);
    assert.ok(expected !== null, `key ${i} is found`);
    for (const name of names) assert.equal(lookups[name](i), expected, `'${name}' finds key ${i} as the guard does`);
  }
  const figures = await runGuard(GUARD_TINY);
  for (const [name, value] of Object.entries(figures))
    assert.ok(Number.isFinite(value), `${name} is finite (${value})`);
});

test('every decode variant reads the same row count and column sums as JSON.parse', () => {
  const cases = decodeCases(dataset);
  assert.deepEqual(
    cases.map((c) => c.name.split(' ')[0]),
    ['klines', 'klines'],
    'a 100-row and a large K-lines case',
  );
  for (const c of cases) {
    const expected = c.answer(c.variants.find((v) => v.name === c.baseline)!.run()) as number[];
    assert.ok(
      expected[0] > 0 && expected.slice(1).every(Number.isFinite),
      `${c.name}: rows read and finite sums (${expected.join(', ')})`,
    );
    for (const v of c.variants)
      assert.deepEqual(c.answer(v.run()), expected, `${c.name}: '${v.name}' reads what '${c.baseline}' reads`);
  }
});

test('the size table has every question in every format, and its compressed sizes are compress() of the body', () => {
  const t = measureSizes(dataset, SIZE_QUESTIONS);
  assert.deepEqual(
    t.rows.map((r) => r.name),
    SIZE_QUESTIONS.map((q) => q.name),
    'one row per question, in order',
  );
  for (const r of t.rows) {
    for (const format of SIZE_FORMATS) {
      const s = r.sizes[format];
      if (s === null) continue;
      assert.ok(s.identity > 0 && s.gzip > 0 && s.br > 0, `${r.name} ${format}: positive sizes`);
    }
    assert.ok(
      r.sizes.json !== null && r.sizes.msgpack !== null && r.sizes.flatbuffers !== null,
      `${r.name}: json, msgpack and flatbuffers are offered`,
    );
  }
  const reply = replyOf(dataset, SIZE_QUESTIONS[0].path(contextOf(dataset, 'ashare')));
  assert.equal(
    t.rows[0].sizes.json!.br,
    compress(bodyOf(reply, 'json'), 'br').length,
    'br bytes are the service compress() of the JSON body',
  );
});

test('the level sweep at the levels in use gives the bytes compress() gives', async () => {
  const t = await levelSweep(dataset, LEVEL_QUESTIONS.slice(0, 1), TINY);
  const [b] = t.bodies;
  assert.equal(b.points.length, 11 + 9, 'br 1…11 and gzip 1…9');
  for (const p of b.points)
    assert.ok(p.bytes > 0 && Number.isFinite(p.us) && p.us > 0, `${p.coding} ${p.level}: bytes and a finite time`);
  const reply = replyOf(dataset, LEVEL_QUESTIONS[0].path(contextOf(dataset, 'ashare')));
  const json = bodyOf(reply, 'json');
  for (const coding of ['br', 'gzip'] as const) {
    assert.equal(
      b.points.find((p) => p.coding === coding && p.chosen)!.bytes,
      compress(json, coding).length,
      `${coding}: the sweep compresses as encode.ts does`,
    );
  }
});

test('checkAnswer refuses an answer in another format or encoding than the case asked for', () => {
  const ctx = { symbol: 'x', symbols: ['x'], date: '2026-10-30', asOf: '2021-10-30', many: ['x'] };
  const json = { body: Buffer.from('{"count":1}'), headers: { 'content-type': 'application/json; charset=utf-8' } };
  const gzipCase = FORMAT_CASES.find((c) => c.encoding === 'gzip')!;
  const flatCase = FORMAT_CASES.find((c) => c.format === 'flatbuffers')!;
  assert.throws(() => checkAnswer(gzipCase, json, ctx), /Content-Encoding/, 'a gzip case needs Content-Encoding: gzip');
  assert.throws(
    () => checkAnswer(flatCase, { ...json, headers: { 'content-type': 'application/x-flatbuffers' } }, ctx),
    /is JSON/,
    'a FlatBuffer case refuses a JSON body',
  );
  assert.throws(() => checkAnswer(flatCase, json, ctx), /Content-Type/, 'a FlatBuffer case needs its content type');
});

test('every format and encoding case has a ratio target', () => {
  for (const c of [...FORMAT_CASES, ...VARIED_CASES])
    assert.ok(RATIO_TARGETS[c.name] !== undefined, `${c.name} has a target`);
});

test('a varied case asks many distinct paths, the first its `path` (answered as the case expects), every one answered 200', async (t) => {
  const server = await startTestServer({ snapshot });
  t.after(() => server.close());
  const ctx = await caseContext(server.port, 'ashare', server.keys.internal);
  for (const c of VARIED_CASES) {
    const paths = c.paths!(ctx);
    assert.equal(new Set(paths).size, paths.length, `${c.name}: distinct paths`);
    assert.equal(paths[0], c.path(ctx), `${c.name}: the first path is the case's path`);
    // Every 50th: the small fixture's later screen pages are short or empty (the full demo's are full).
    for (const path of paths.filter((_, i) => i % 50 === 0)) {
      const res = await httpGet(`http://127.0.0.1:${server.port}${path}`, {
        'x-api-key': server.keys.internal,
        ...c.headers,
      });
      assert.equal(res.status, 200, `${c.name}: 200 for ${path}`);
      if (path === paths[0])
        assert.doesNotThrow(() => checkAnswer(c, res, ctx), `${c.name}: the answer the case measures`);
    }
  }
});

test("the bare server (each first ask's floor) sends the bytes the service sends for every first-ask case", async (t) => {
  const server = await startTestServer({ snapshot, responseCache: null });
  t.after(() => server.close());
  const bare = startChild(
    'bare-server',
    process.execPath,
    [fileURLToPath(new URL('../../bench/http/bare-server.js', import.meta.url)), '--port', '0', '--state', stateDir],
    { onStderr: () => {} },
  );
  t.after(() => bare.stop());
  const port = Number(
    (await bare.waitForLine(/"msg":"Serving \S+ at http:\/\/127\.0\.0\.1:(\d+)\/api\/v1/, 30_000))[1],
  );
  const ctx = await caseContext(server.port, 'ashare', server.keys.internal);
  assert.equal(
    FIRST_ASK_CASES.length,
    8,
    'K-lines 100 bfq and qfq, the latest 20, detail, a detail batch, a batch of a day, the screen, search',
  );
  for (const c of FIRST_ASK_CASES)
    for (const path of c.paths!(ctx).filter((_, i) => i % 100 === 0)) {
      const ours = await httpGet(`http://127.0.0.1:${server.port}${path}`, { 'x-api-key': server.keys.internal });
      const floor = await httpGet(`http://127.0.0.1:${port}${path}`);
      assert.equal(ours.status, 200, `${c.name}: the service answers ${path}`);
      assert.equal(floor.status, 200, `${c.name}: the bare server answers ${path}`);
      assert.equal(floor.body.toString('utf8'), ours.body.toString('utf8'), `${c.name}: the same body for ${path}`);
    }
});

test('the in-process answers of the size table are the bytes the server sends', async (t) => {
  const server = await startTestServer({ snapshot });
  t.after(() => server.close());
  const ctx = await caseContext(server.port, 'ashare', server.keys.internal);
  assert.deepEqual(contextOf(server.dataset, 'ashare'), ctx, 'the in-process context is the one read over HTTP');
  for (const q of SIZE_QUESTIONS) {
    const reply = replyOf(server.dataset, q.path(ctx));
    for (const format of SIZE_FORMATS) {
      if (!offers(reply, format)) continue;
      const sep = q.path(ctx).includes('?') ? '&' : '?';
      const res = await httpGet(`http://127.0.0.1:${server.port}${q.path(ctx)}${sep}format=${format}`, {
        'x-api-key': server.keys.internal,
      });
      assert.equal(res.status, 200, `${q.name} ${format}: 200`);
      assert.ok(res.body.equals(bodyOf(reply, format)), `${q.name} ${format}: in-process body equals the served one`);
    }
  }
});

test('every HTTP case asks a question the server answers 200, as the case expects (default, formats, uncached, pool)', async (t) => {
  const modes = [
    { cases: [...ALL_CASES, ...FORMAT_CASES, ...VARIED_CASES], pool: false, responseCache: undefined },
    { cases: UNCACHED_CASES, pool: false, responseCache: null },
    { cases: [POOL_SCREEN], pool: true, responseCache: null },
  ];
  for (const mode of modes) {
    const server = await startTestServer({
      snapshot,
      pool: mode.pool,
      minScreenRows: 0,
      responseCache: mode.responseCache,
    });
    t.after(() => server.close());
    const ctx = await caseContext(server.port, 'ashare', server.keys.internal);
    for (const c of mode.cases) {
      // Three times: the third answer of a cached server comes from its cache.
      for (let n = 0; n < 3; n++) {
        // As the probe asks: the case's headers, the bytes kept as sent.
        const res = await httpGet(`http://127.0.0.1:${server.port}${c.path(ctx)}`, {
          'x-api-key': server.keys.internal,
          ...c.headers,
        });
        assert.equal(res.status, 200, `${c.name}: 200 for ${c.path(ctx)} (${res.body.toString('utf8').slice(0, 200)})`);
        assert.doesNotThrow(() => checkAnswer(c, res, ctx), `${c.name}: the answer is the one the case measures`);
      }
    }
  }
});

test('the as_of cases ask 5 years back, or halfway through a shorter history', () => {
  assert.equal(pastDay('2016-01-04', '2026-10-30'), '2021-10-30');
  assert.equal(pastDay('2024-01-01', '2025-01-01'), '2024-07-02');
});
