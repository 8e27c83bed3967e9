// Every micro-bench case, the pool crossover, the guard bench and every HTTP case, run once at tiny size so the bench cannot rot.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { generateDemoSnapshot } from '../../bench/data-gen/index.js';
import { GUARD_TINY, hotPathLookups, run as runGuard } from '../../bench/cases/guard.js';
import { microCases } from '../../bench/cases/index.js';
import { SCREEN_QUERY } from '../../bench/cases/inputs.js';
import { datasetWith, syntheticTable, TINY_POOL_SIZES } from '../../bench/cases/pool.js';
import { screenAnswer } from '../../bench/cases/screen.js';
import { ALL_CASES } from '../../bench/http/cases.js';
import { caseContext } from '../../bench/http/comparison.js';
import { POOL_SCREEN, UNCACHED_CASES } from '../../bench/http/endpoints.js';
import { measureAll, type MicroOptions } from '../../bench/micro/measure.js';
import { poolCrossover } from '../../bench/micro/pool-crossover.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { KernelPool } from '../../engine/pool/pool.js';
import { screen } from '../../engine/queries/screen.js';
import { storeSnapshot } from '../../loaders/lmdb/snapshot-store.js';
import { openCurrentDataset } from '../../loaders/open-dataset.js';
import { SCHEMAS } from '../../transport/schemas/responses.js';
import { startTestServer } from '../helpers/api-server.js';
import { tempDir } from '../helpers/snapshot-folder.js';

/** Two samples of a few calls each: enough for a finite median, far from a measurement. */
const TINY: MicroOptions = { timeMs: 0, warmupMs: 0, minSamples: 2, sampleUs: 5 };

let dataset: Dataset;
let snapshot: string;
let cleanup: () => Promise<void>;

before(async () => {
  const dir = await tempDir('mdq-bench-cases-');
  cleanup = dir.cleanup;
  snapshot = join(dir.path, 'demo');
  await generateDemoSnapshot(snapshot, { symbolScale: 0.01, years: 1, progress: false });
  await storeSnapshot(snapshot, join(dir.path, 'state'), { threads: 0 });
  dataset = (await openCurrentDataset(join(dir.path, 'state')))!;
});
after(() => cleanup());

test('every micro case: each variant gives the same answer as the baseline', () => {
  for (const c of microCases(dataset)) {
    const base = c.variants.find((v) => v.name === c.baseline);
    assert.ok(base, `${c.group} / ${c.name} names an existing baseline`);
    const expected = c.answer(base.run());
    for (const v of c.variants) assert.deepEqual(c.answer(v.run()), expected, `${c.group} / ${c.name}: '${v.name}' answers as '${c.baseline}'`);
  }
});

test('every micro case yields a finite time per call and ratio for each variant', async () => {
  const figures = await measureAll(microCases(dataset), TINY);
  assert.ok(figures.length > 10, 'K-lines, screen, detail and serialiser cases are all there');
  for (const c of figures) {
    for (const v of c.variants) {
      assert.ok(Number.isFinite(v.us) && v.us > 0, `${c.group} / ${c.name} / ${v.name}: µs per call is finite and positive (${v.us})`);
      assert.ok(Number.isFinite(v.speedup) && v.speedup > 0, `${c.group} / ${c.name} / ${v.name}: ratio to the baseline is finite (${v.speedup})`);
    }
  }
});

test('there is one serialiser case per response shape', () => {
  const shapes = microCases(dataset).filter((c) => c.group === 'serialise').map((c) => c.name);
  assert.deepEqual(shapes.sort(), Object.keys(SCHEMAS).sort(), 'each shape of the schemas is benchmarked');
});

test('a screen on the pool answers what the inline screen answers, on the real and a synthetic table', async (t) => {
  const pool = new KernelPool(1);
  t.after(() => pool.close());
  const real = dataset.markets.ashare.snapshots;
  const synthetic = syntheticTable(real, 2_000);
  for (const [name, table, ds] of [['real', real, dataset], ['synthetic', synthetic, datasetWith(synthetic, 'test-synthetic')]] as const) {
    assert.deepEqual(screenAnswer(await pool.screen(ds, 'ashare', SCREEN_QUERY)), screenAnswer(screen(table, SCREEN_QUERY)), `${name} table: same total and rows`);
  }
});

test('the pool crossover runs at tiny sizes and reports finite figures and a verdict', async () => {
  const r = await poolCrossover(dataset, TINY_POOL_SIZES, { micro: TINY, runMs: 20, threads: 1 });
  assert.equal(r.points.length, TINY_POOL_SIZES.length, 'one point per size');
  for (const p of r.points) {
    for (const [k, v] of Object.entries(p)) if (typeof v === 'number') assert.ok(Number.isFinite(v), `${p.name}: ${k} is finite (${v})`);
    assert.ok(p.inlineRps > 0 && p.poolRps > 0, `${p.name}: both modes completed screens`);
  }
  assert.match(r.verdict, /one screen: .*; screens\/s: .*; main-thread time: /, 'the verdict covers latency, throughput and main-thread time');
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
  for (const [name, value] of Object.entries(figures)) assert.ok(Number.isFinite(value), `${name} is finite (${value})`);
});

test('every HTTP case asks a question the server answers 200, as the case expects (default, uncached, pool)', async (t) => {
  const modes = [
    { cases: ALL_CASES, pool: false, responseCache: undefined },
    { cases: UNCACHED_CASES, pool: false, responseCache: null },
    { cases: [POOL_SCREEN], pool: true, responseCache: null },
  ];
  for (const mode of modes) {
    const server = await startTestServer({ snapshot, pool: mode.pool, minScreenRows: 0, responseCache: mode.responseCache });
    t.after(() => server.close());
    const ctx = await caseContext(server.port, 'ashare', server.keys.internal);
    for (const c of mode.cases) {
      // Three times: the third answer of a cached server comes from its cache.
      for (let n = 0; n < 3; n++) {
        const res = await server.get(c.path(ctx), { key: server.keys.internal });
        assert.equal(res.status, 200, `${c.name}: 200 for ${c.path(ctx)} (${res.text.slice(0, 200)})`);
        assert.doesNotThrow(() => c.check(res.body, ctx), `${c.name}: the answer is the one the case measures`);
      }
    }
  }
});
