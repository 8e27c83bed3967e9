// The HTTP bench harness end to end at tiny size: ours vs raw uWS under wrk, 1 s per side, so it cannot rot.

import { strict as assert } from 'node:assert';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { generateDemoSnapshot } from '../../loaders/demo/index.js';
import { KLINES_100_BFQ } from '../../bench/http/cases.js';
import { type ComparisonResult, runComparison } from '../../bench/http/comparison.js';
import { parseWrkOutput, ensureWrk } from '../../bench/http/wrk.js';

test('parseWrkOutput turns the done() line into req/s and milliseconds', () => {
  const out =
    'Running 1s test\nWRK_JSON {"requests":2000,"duration_us":2000000,"bytes":300000,"p50_us":500,"p99_us":1500,"p999_us":2500,"max_us":4000,"status":3,"connect":1,"read":2,"write":0,"timeout":1}\n';
  const r = parseWrkOutput(out);
  assert.deepEqual(
    {
      rps: r.rps,
      p50: r.p50,
      p99: r.p99,
      p999: r.p999,
      non2xx: r.non2xx,
      errors: r.errors,
      bytesPerResponse: r.bytesPerResponse,
    },
    { rps: 1000, p50: 0.5, p99: 1.5, p999: 2.5, non2xx: 3, errors: 4, bytesPerResponse: 150 },
    'rps is requests over duration; latencies in ms; socket errors summed',
  );
});

test('compare runs ours and the raw server with the same headers and body, cleans up and writes its JSON', async (t) => {
  const noWrk = ensureWrk();
  if (noWrk !== null && process.env.CI === 'true')
    assert.fail(`wrk unavailable: ${noWrk}; CI must run the HTTP harness`);
  if (noWrk !== null) return t.skip(`wrk unavailable: ${noWrk}`);
  const dir = mkdtempSync(join(tmpdir(), 'mdq-http-harness-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const snapshot = join(dir, 'snapshot');
  await generateDemoSnapshot(snapshot, { symbolScale: 0.01, years: 1, progress: false });
  const outFile = join(dir, 'out', 'http-compare.json');
  const result = await runComparison({
    cases: [KLINES_100_BFQ],
    seconds: 1,
    warmupSeconds: 0,
    rounds: 1,
    connections: 4,
    maxOtherCpu: 2,
    retries: 0,
    snapshotDir: snapshot,
    stateDir: join(dir, 'state'),
    outFile,
    log: () => {},
    command: 'test',
  });
  const [c] = result.cases;
  assert.ok(c.bodyBytes > 1000, `the probe body is a 100-row answer (${c.bodyBytes} bytes)`);
  for (const side of ['ours', 'raw'] as const) {
    assert.ok(c[side].rps > 0, `${side} answered under load`);
    assert.equal(c[side].non2xx, 0, `${side} answered only 2xx`);
    assert.equal(c[side].errors, 0, `${side} had no socket errors`);
  }
  // The raw server replays our headers: only the X-Request-Id's counter (a few base-36 digits) differs per response.
  assert.ok(
    Math.abs(c.ours.bytesPerResponse - c.raw.bytesPerResponse) < 8,
    `both sides sent the same header and body bytes (${c.ours.bytesPerResponse} vs ${c.raw.bytesPerResponse} per response)`,
  );
  assert.ok(
    c.answerHeaders.some(([name]) => name.toLowerCase() === 'etag'),
    "the replayed headers are our answer's (ETag among them)",
  );
  assert.equal(c.ratio, c.ours.rps / c.raw.rps, 'the ratio is ours / raw');
  const saved = JSON.parse(readFileSync(outFile, 'utf8')) as ComparisonResult;
  assert.equal(saved.loadTool.name, 'wrk', 'the JSON records the load tool');
  assert.equal(typeof saved.pinning.note, 'string', 'the JSON records the pinning');
  assert.ok(existsSync(join(dir, 'state', 'bench-internal.key')), 'the internal key is kept for the next run');
});
