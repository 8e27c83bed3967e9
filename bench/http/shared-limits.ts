// The shared-limits part of `npm run bench`: a limited key's request served with limits kept in
// this process (local) and in Redis (REDIS_URL), same run, same bytes; and the admit round trip
// measured in-process, one at a time, concurrent, and auto-pipelined.

import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { StateStore } from '../../loaders/state/state-store.js';
import { RedisLimits } from '../../transport/guard/redis-limits.js';
import { type Child, startChild } from './children.js';
import { cpuSeconds } from './cpu-time.js';
import { choosePinning, pinned } from './pinning.js';
import { startOurServer } from './servers.js';
import { runWrk } from './wrk.js';

const FIXTURE = fileURLToPath(new URL('../../../snapshots/fixtures/derived', import.meta.url));
/** A cached K-line answer: what differs between the modes is the limits alone. */
const PATH = '/api/v1/ashare/klines/sh600001?limit=100';
/** Enterprise keys (600 a minute each), turned over one per request so no bucket runs dry during the runs. */
const KEYS = 3000;

export interface LimitsOptions {
  seconds: number;
  rounds: number;
  connections: number;
  log: (line: string) => void;
}

export interface ModeRun {
  mode: 'local' | 'redis';
  rps: number;
  p50: number;
  p99: number;
  /** Answers ≥ 400 (none expected: every key has tokens). */
  non2xx: number;
  /** Server CPU per request, µs (all its threads). */
  serverUs: number | null;
  /** Redis CPU per request, µs (redis mode). */
  redisUs: number | null;
}

export interface AdmitFigures {
  /** µs per admit, one after another (a round trip each). */
  sequentialUs: number;
  /** Admits a second with 32 in flight, written as they come. */
  concurrent: number;
  /** The same with ioredis auto-pipelining (commands of one event-loop turn in one write). */
  pipelined: number;
}

export interface LimitsResult {
  pinning: string;
  /** Best round of each mode at full load. */
  max: ModeRun[];
  /** Both modes at the same offered rate (half the local maximum): the latency a limited request pays. */
  paced: ModeRun[];
  pacedRate: number;
  admit: AdmitFigures;
}

/** Why redis-server cannot run here, or null. */
export function redisMissing(): string | null {
  const r = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return r.error ? 'redis-server is not installed (apt-get install -y redis-server)' : null;
}

/** `n` enterprise keys in a new state folder (before the server opens it: one LMDB opener at a time). */
async function stateWithKeys(dir: string, n: number): Promise<string[]> {
  const store = StateStore.open(dir);
  const keys: string[] = [];
  for (let i = 0; i < n; i++) keys.push((await store.keys.create('enterprise', `bench ${i}`)).key);
  await store.close();
  return keys;
}

async function startRedisServer(core: number | null, dir: string): Promise<{ child: Child; port: number }> {
  for (let attempt = 0; ; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 20_000);
    const [cmd, args] = pinned(core, 'redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'no',
    ]);
    const child = startChild('redis', cmd, args);
    try {
      await child.waitForLine(/Ready to accept connections/, 10_000);
      return { child, port };
    } catch (error) {
      await child.stop();
      if (attempt >= 3) throw error;
    }
  }
}

/** Admit round trips from this process: sequential, 32 concurrent, 32 concurrent auto-pipelined. */
async function admitFigures(url: string, ids: string[]): Promise<AdmitFigures> {
  /** The i-th key's admission, as an enterprise request charging rows. */
  const ask = (i: number, seen: { used: number; requests: number }) => ({
    id: ids[i % ids.length],
    day: '2026-01-01',
    rpm: 600,
    dailyQuota: 2_000_000,
    chargesRows: true,
    seen,
  });
  const rate = async (pipelined: boolean): Promise<number> => {
    const redis = new Redis(url, { enableAutoPipelining: pipelined, maxRetriesPerRequest: 0 });
    const limits = new RedisLimits(redis);
    let n = 0;
    const until = performance.now() + 2000;
    const seen = { used: 0, requests: 0 };
    await Promise.all(
      Array.from({ length: 32 }, async (_, w) => {
        for (let i = w; performance.now() < until; i += 32) await limits.admit(ask(i, seen)), n++;
      }),
    );
    redis.disconnect();
    return n / 2;
  };
  const redis = new Redis(url, { maxRetriesPerRequest: 0 });
  const limits = new RedisLimits(redis);
  const seen = { used: 0, requests: 0 };
  for (let i = 0; i < 2000; i++) await limits.admit(ask(i, seen)); // warm-up
  const t0 = performance.now();
  const N = 5000;
  for (let i = 0; i < N; i++) await limits.admit(ask(i, seen));
  const sequentialUs = ((performance.now() - t0) * 1000) / N;
  redis.disconnect();
  return { sequentialUs, concurrent: await rate(false), pipelined: await rate(true) };
}

export async function runSharedLimits(o: LimitsOptions): Promise<LimitsResult> {
  const pin = choosePinning();
  const dir = mkdtempSync(join(tmpdir(), 'mdq-limits-bench-'));
  const children: Child[] = [];
  try {
    o.log(`creating ${KEYS} enterprise keys per server`);
    const localKeys = await stateWithKeys(join(dir, 'local'), KEYS);
    const redisKeys = await stateWithKeys(join(dir, 'redis'), KEYS);
    // Redis beside the server, on its core: the serving side pays for both.
    const redis = await startRedisServer(pin.serverCore, dir);
    children.push(redis.child);
    const url = `redis://127.0.0.1:${redis.port}`;
    const local = await startOurServer({
      stateDir: join(dir, 'local'),
      snapshotDir: FIXTURE,
      core: pin.serverCore,
      log: o.log,
    });
    children.push(local.child);
    const shared = await startOurServer({
      stateDir: join(dir, 'redis'),
      snapshotDir: FIXTURE,
      core: pin.serverCore,
      env: { REDIS_URL: url },
      log: o.log,
    });
    children.push(shared.child);
    const servers = { local: { ...local, keys: localKeys }, redis: { ...shared, keys: redisKeys } };

    const run = async (mode: 'local' | 'redis', seconds: number, rate?: number): Promise<ModeRun> => {
      const s = servers[mode];
      const c0 = cpuSeconds(s.child.pid);
      const r0 = cpuSeconds(redis.child.pid);
      const w = await runWrk({
        url: `http://127.0.0.1:${s.port}${PATH}`,
        connections: o.connections,
        seconds,
        core: pin.loadCore,
        rate,
        rotate: { header: 'x-api-key', values: s.keys },
      });
      const c1 = cpuSeconds(s.child.pid);
      const r1 = cpuSeconds(redis.child.pid);
      const perRequest = (a: number | null, b: number | null): number | null =>
        a === null || b === null || w.requests === 0 ? null : ((b - a) * 1e6) / w.requests;
      return {
        mode,
        rps: w.rps,
        p50: w.p50,
        p99: w.p99,
        non2xx: w.non2xx,
        serverUs: perRequest(c0, c1),
        redisUs: mode === 'redis' ? perRequest(r0, r1) : null,
      };
    };
    for (const mode of ['local', 'redis'] as const) await run(mode, 1); // warm-up (JIT, connections, Redis's script cache)
    const best: Record<'local' | 'redis', ModeRun | null> = { local: null, redis: null };
    for (let round = 0; round < o.rounds; round++) {
      for (const mode of ['local', 'redis'] as const) {
        const r = await run(mode, o.seconds);
        o.log(`limits ${mode} round ${round + 1}: ${Math.round(r.rps)} req/s, p99 ${r.p99.toFixed(2)} ms`);
        if (best[mode] === null || r.rps > best[mode]!.rps) best[mode] = r;
      }
    }
    const pacedRate = Math.round(best.local!.rps / 2);
    const paced = [await run('local', o.seconds, pacedRate), await run('redis', o.seconds, pacedRate)];
    o.log('admit round trips in-process');
    const ids = redisKeys.map((k) => k.split('_')[1]);
    const admit = await admitFigures(url, ids);
    return {
      pinning: `${pin.note}; Redis on the server's core`,
      max: [best.local!, best.redis!],
      paced,
      pacedRate,
      admit,
    };
  } finally {
    for (const c of children.reverse()) await c.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const fixed = (n: number | null, digits: number): string => (n === null ? '–' : n.toFixed(digits));

export function formatSharedLimits(r: LimitsResult): string {
  const row = (m: ModeRun, base: ModeRun): string =>
    `| ${m.mode} | ${Math.round(m.rps).toLocaleString('en-US')} | ${(m.rps / base.rps).toFixed(2)} | ${m.p50.toFixed(2)} | ${m.p99.toFixed(2)} | ${fixed(m.serverUs, 1)} | ${fixed(m.redisUs, 1)} | ${m.non2xx} |`;
  const head =
    '| limits | req/s | vs local | p50 ms | p99 ms | server CPU µs/req | Redis CPU µs/req | non-2xx |\n|---|---|---|---|---|---|---|---|';
  return [
    `A limited (enterprise) key's cached K-line answer, limits in this process vs in Redis (${r.pinning})`,
    `Full load (best round):\n${head}\n${r.max.map((m) => row(m, r.max[0])).join('\n')}`,
    `At ${r.pacedRate.toLocaleString('en-US')} req/s offered to both (half the local maximum):\n${head}\n${r.paced.map((m) => row(m, r.paced[0])).join('\n')}`,
    `Admit scripts from one process: ${r.admit.sequentialUs.toFixed(1)} µs each one at a time; ${Math.round(r.admit.concurrent).toLocaleString('en-US')}/s with 32 in flight; ${Math.round(r.admit.pipelined).toLocaleString('en-US')}/s auto-pipelined`,
  ].join('\n\n');
}
