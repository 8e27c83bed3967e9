// Bench: per-request key check + bucket + quota (tinybench), and 1M requests' usage with persistence running.

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { Bench } from 'tinybench';
import type { KeyRecord, PlanName } from '../../engine/plans.js';
import { StateStore } from '../../loaders/state/state-store.js';
import { StateSync } from '../../loaders/state/state-sync.js';
import { parseApiKey, secretHash, secretMatches } from '../../transport/guard/api-key.js';
import { Guard, type KeyState } from '../../transport/guard/guard.js';
import { localDayNumber } from '../../transport/guard/quota-day.js';

const PLANS: PlanName[] = ['free', 'pro', 'enterprise', 'internal'];
/** Requests per tinybench iteration: one timer read per request would dwarf a sub-µs body. */
const BATCH = 1_000;

/** Deterministic key text for key `i` (seeded inputs: every run measures the same work). */
function keyText(i: number): { id: string; secret: string; key: string } {
  const id = `bench${String(i).padStart(7, '0')}`;
  const secret = `S${String(i * 7919).padStart(31, '0')}`;
  return { id, secret, key: `mdq_${id}_${secret}` };
}

function benchGuard(n: number): { guard: Guard; keys: string[] } {
  const recs: KeyRecord[] = [];
  const keys: string[] = [];
  for (let i = 0; i < n; i++) {
    const { id, secret, key } = keyText(i);
    recs.push({
      id,
      plan: PLANS[i % 3],
      org: 'bench',
      created: '2024-01-01T00:00:00.000Z',
      disabled: false,
      hash: secretHash(secret),
    });
    keys.push(key);
  }
  const guard = new Guard('America/New_York');
  guard.setKeys(recs);
  return { guard, keys };
}

/** How much work the guard bench does: the full run, or a tiny one for `--quick` and the tests. */
export interface GuardOptions {
  /** tinybench time per hot-path variant, ms. */
  hotPathMs: number;
  /** Keys and requests of the persistence runs (the warm-up is 30 % of `requests`). */
  keys: number;
  requests: number;
}
export const GUARD_FULL: GuardOptions = { hotPathMs: 1_500, keys: 10_000, requests: 1_000_000 };
export const GUARD_QUICK: GuardOptions = { hotPathMs: 200, keys: 2_000, requests: 100_000 };
export const GUARD_TINY: GuardOptions = { hotPathMs: 5, keys: 20, requests: 2_000 };

/**
 * The hot path's key lookups as data: each resolves request `i`'s key text to its state (or
 * null), the guard's way or a naive way. The tests check they all find the same key.
 */
export function hotPathLookups(): {
  keys: string[];
  guard: Guard;
  lookups: Record<string, (i: number) => KeyState | null>;
} {
  const { guard, keys } = benchGuard(BATCH);
  // What the HTTP layer hands over is a new string per request: rebuild it from bytes.
  const raw = keys.map((k) => Buffer.from(k, 'latin1'));
  const byId = new Map<string, KeyState>(keys.map((k) => [parseApiKey(k)!.id, guard.authenticate(k)!]));
  let days = 0; // kept so the day computation is not optimised away
  const now = Date.parse('2024-03-10T12:00:00Z');
  const lookups: Record<string, (i: number) => KeyState | null> = {
    'guard (cached key string)': (i) => guard.authenticate(keys[i]),
    'guard (fresh key string)': (i) => guard.authenticate(raw[i].toString('latin1')),
    'naive: sha256 per request': (i) => {
      const p = parseApiKey(keys[i])!;
      const k = byId.get(p.id)!;
      return secretMatches(p.secret, k.hash) ? k : null;
    },
    'naive: Intl day per request': (i) => {
      days += localDayNumber(now, 'America/New_York');
      return days === -1 ? null : guard.authenticate(keys[i]);
    },
  };
  return { keys, guard, lookups };
}

/** (a) ns per request of authenticate + admit + charge, beside naive baselines. */
async function hotPath(o: GuardOptions): Promise<Record<string, number>> {
  const { guard, lookups } = hotPathLookups();
  let now = Date.parse('2024-03-10T12:00:00Z');
  let sink = 0;
  const serve = (k: KeyState | null) => {
    if (k === null) return;
    now += 1; // each key is seen once a second: mostly admitted, free keys partly rate-limited
    const v = guard.admit(k, now, true);
    if (v.ok) sink += guard.charge(k, 10, now) ?? 0;
  };
  const bench = new Bench({ time: o.hotPathMs, warmupTime: Math.min(300, o.hotPathMs / 5) });
  for (const [name, lookup] of Object.entries(lookups)) {
    bench.add(name, () => {
      for (let i = 0; i < BATCH; i++) serve(lookup(i));
    });
  }
  await bench.run();
  const out: Record<string, number> = {};
  const rows = bench.tasks.map((t) => {
    const r = t.result;
    const ns = 'latency' in r ? (r.latency.p50 * 1e6) / BATCH : Number.NaN;
    out[`median ns/request: ${t.name}`] = Math.round(ns);
    return { case: t.name, 'median ns/request': ns.toFixed(0) };
  });
  const base = out['median ns/request: guard (cached key string)'];
  console.table(rows.map((r) => ({ ...r, 'vs guard': `${(Number(r['median ns/request']) / base).toFixed(1)}×` })));
  if (sink === -1) console.log(sink); // keeps the work observable
  return out;
}

/** Sends `total` requests round-robin over `states`, `chunk` every `paceMs`; returns the longest chunk, ms. */
function paced(guard: Guard, states: KeyState[], total: number, chunk: number, paceMs: number): Promise<number> {
  let done = 0,
    worst = 0;
  return new Promise((resolve) => {
    const step = () => {
      const c0 = performance.now();
      const now = Date.now();
      for (let i = 0; i < chunk; i++, done++) {
        const k = states[done % states.length];
        if (guard.admit(k, now, true).ok) guard.charge(k, 10, now);
      }
      worst = Math.max(worst, performance.now() - c0);
      if (done < total) setTimeout(step, paceMs);
      else resolve(worst);
    };
    setTimeout(step, paceMs);
  });
}

/** (b) 1M requests from 10,000 keys paced over ~5 s (full size), with or without the state sync flushing. */
async function persistence(withSync: boolean, o: GuardOptions): Promise<Record<string, number>> {
  const KEYS = o.keys,
    TOTAL = o.requests,
    CHUNK = Math.min(5_000, TOTAL / 10),
    PACE_MS = 25;
  const dir = mkdtempSync(join(tmpdir(), 'mdq-bench-'));
  const store = StateStore.open(dir);
  try {
    const issued = await Promise.all(Array.from({ length: KEYS }, (_, i) => store.keys.create(PLANS[i % 4], 'bench')));
    const guard = new Guard();
    const sync = withSync ? StateSync.start(store, guard) : undefined;
    if (!sync) guard.setKeys(store.keys.list());
    const states = issued.map((k) => guard.authenticate(k.key)!);
    // Warm-up (≥ 1 flush) so JIT and the GC of the set-up garbage are not charged to the steady state.
    await paced(guard, states, Math.round(TOTAL * 0.3), CHUNK, PACE_MS);
    await sync?.flush();
    sync?.resetStats();
    const loop = monitorEventLoopDelay({ resolution: 1 });
    let worstGcMs = 0;
    const gc = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) worstGcMs = Math.max(worstGcMs, e.duration);
    });
    gc.observe({ entryTypes: ['gc'] });
    loop.enable();
    const t0 = performance.now();
    const worstChunkMs = await paced(guard, states, TOTAL, CHUNK, PACE_MS);
    const wallMs = performance.now() - t0;
    loop.disable();
    gc.disconnect();
    await sync?.close();
    const s = sync?.stats;
    return {
      'wall s': +(wallMs / 1000).toFixed(2),
      'worst loop delay ms': +(loop.max / 1e6).toFixed(2),
      'p99 loop delay ms': +(loop.percentile(99) / 1e6).toFixed(2),
      'worst GC pause ms': +worstGcMs.toFixed(2),
      [`worst request chunk ms (${CHUNK.toLocaleString('en-US')} req)`]: +worstChunkMs.toFixed(2),
      flushes: s?.flushes ?? 0,
      'entries flushed': s?.entries ?? 0,
      'worst flush stretch on the loop ms': +(s?.maxSyncMs ?? 0).toFixed(2),
      'worst flush drain-to-commit ms': +(s?.maxFlushMs ?? 0).toFixed(2),
    };
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs both parts, prints their tables and returns every figure by name. */
export async function run(o: GuardOptions = GUARD_FULL): Promise<Record<string, number>> {
  console.log('guard: authenticate + admit + charge, per request');
  const a = await hotPath(o);
  console.log(
    `guard: ${o.requests.toLocaleString('en-US')} requests from ${o.keys.toLocaleString('en-US')} keys, paced`,
  );
  const off = await persistence(false, o);
  const on = await persistence(true, o);
  console.table(Object.keys(on).map((k) => ({ figure: k, 'no persistence': off[k], 'state sync on': on[k] })));
  const out: Record<string, number> = { ...a };
  for (const [k, v] of Object.entries(on)) out[`persist: ${k}`] = v;
  for (const [k, v] of Object.entries(off)) out[`baseline: ${k}`] = v;
  return out;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href)
  await run(process.argv.includes('--quick') ? GUARD_QUICK : GUARD_FULL);
