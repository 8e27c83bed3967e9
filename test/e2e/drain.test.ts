// SIGTERM drain of the real server process: under a request stream (whole answers or 503, exit 0, usage kept), and quiet.

import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fixtureCopy } from '../helpers/fixture-copy.js';
import { type Exchange, KeepAliveClient } from '../helpers/keep-alive.js';
import { type RequestStream, startRequestStream, waitForAnswers } from '../helpers/request-stream.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const KLINES_5 = '/api/v1/ashare/klines/sh600001?limit=5';
const KLINES_10 = '/api/v1/ashare/klines/sh600001?limit=10';
const MARKETS = '/api/v1/markets';
/** The pro key's known usage before the stop: rows 5 + 6 (six markets) + 10 + 0, four requests. */
const KNOWN = [KLINES_5, MARKETS, KLINES_10, '/api/v1/quota'];

type Answer = Extract<Exchange, { kind: 'response' }>;
type Quota = { used: number; requests_today: number };

/** `promise`'s value, or null after `ms` (the timer cleared either way). */
async function within<T>(promise: Promise<T>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

describe('drain under a request stream', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let first: ServerProcess;
  let second: ServerProcess | undefined;
  let stream: RequestStream;
  /** What the run saw, checked one behaviour per test below. */
  const seen = {
    knownRows: 0,
    knownRequests: 0,
    signalAt: 0,
    /** When the drain's log line was seen (null: not within 5 s of the signal). */
    drainLoggedAt: null as number | null,
    secondSigtermSent: false,
    exit: null as { code: number | null; signal: string | null; afterMs: number } | null,
    idleClosed: false,
    slowClosed: false,
    quotaPro: null as Quota | null,
    quotaInternal: null as Quota | null,
  };

  const rowsOf = (a: Answer): number => {
    const body = JSON.parse(a.body.toString('utf8'));
    return typeof body.count === 'number' ? body.count : 0; // /quota charges no rows
  };

  async function quotaOf(server: ServerProcess, key: string): Promise<Quota> {
    const client = new KeepAliveClient(server.port);
    const ex = await client.get('/api/v1/quota', { 'x-api-key': key });
    client.close();
    assert.equal(
      ex.kind === 'response' && ex.status,
      200,
      `/quota answers 200 after the restart (${JSON.stringify(ex)})`,
    );
    return JSON.parse((ex as Answer).body.toString('utf8'));
  }

  before(async () => {
    dir = await tempDir('mdq-drain-');
    const folder = await fixtureCopy(join(dir.path, 'snapshot'));
    const state = join(dir.path, 'state');
    first = await startServerProcess({ snapshot: folder, state });
    const pro = { 'x-api-key': first.keys.pro! };
    const internal = { 'x-api-key': first.keys.internal! };

    // Known usage on the pro key, one request after the other.
    const known = new KeepAliveClient(first.port);
    for (const path of KNOWN) {
      const ex = await known.get(path, pro);
      assert.equal(ex.kind === 'response' && ex.status, 200, `known request ${path} is answered 200`);
      seen.knownRows += rowsOf(ex as Answer);
      seen.knownRequests++;
    }
    known.close();

    // Clients that must not hold the exit up: an idle keep-alive connection, and one that sent half a request.
    const idle = new KeepAliveClient(first.port);
    assert.equal((await idle.get('/healthz')).kind, 'response', 'the idle client had one answer');
    const slow = new KeepAliveClient(first.port);
    assert.ok(await slow.open(), 'the slow client connects');
    slow.writeRaw(`GET ${MARKETS} HTTP/1.1\r\nHost: 127.0.0.1\r\nx-api-key: ${first.keys.internal}\r\n`); // no blank line: never finished
    const idleClosed = idle.closed().then(() => (seen.idleClosed = true));
    const slowClosed = slow.closed().then(() => (seen.slowClosed = true));

    stream = startRequestStream({
      port: first.port,
      connections: 4,
      paths: [KLINES_5, MARKETS],
      headers: internal,
      maxPerConnection: 20_000,
      stopWhenRefused: true,
    });
    await waitForAnswers(stream, 200);
    seen.signalAt = performance.now();
    first.signal('SIGTERM');
    first.signal('SIGINT'); // a second signal of another kind: never merged with the first by the kernel
    seen.drainLoggedAt = await first.waitForLog(/: draining/, 5000).then(
      () => performance.now(),
      () => null,
    );
    if ((await first.rss()) !== null) {
      first.signal('SIGTERM'); // a second SIGTERM, if the drain is still running
      seen.secondSigtermSent = true;
    }
    const ended = await within(first.exited, 12_000);
    if (ended !== null) seen.exit = { code: ended.code, signal: ended.signal, afterMs: ended.atMs - seen.signalAt };
    await within(stream.done, 3000);
    await stream.stop();
    await within(Promise.all([idleClosed, slowClosed]), 1000);
    for (const c of [idle, slow]) c.close();

    second = await startServerProcess({ state }); // the same state dir: keys and usage as the first left them
    seen.quotaPro = await quotaOf(second, first.keys.pro!);
    seen.quotaInternal = await quotaOf(second, first.keys.internal!);
  });

  after(async () => {
    await stream?.stop();
    await first?.kill();
    await second?.kill();
    await dir?.cleanup();
  });

  const exchanges = () => stream.records.flat().map((r) => r.exchange);

  test('every request of the stream got a whole 200, a 503 shutting_down, or a refused new connection: none cut short', () => {
    const all = exchanges();
    const bad = all.filter((ex) => {
      if (ex.kind === 'refused') return false;
      if (ex.kind !== 'response') return true;
      return ex.status !== 200 && ex.status !== 503;
    });
    const kinds = all.reduce<Record<string, number>>(
      (n, ex) => (
        (n[ex.kind === 'response' ? ex.status : ex.kind] = (n[ex.kind === 'response' ? ex.status : ex.kind] ?? 0) + 1),
        n
      ),
      {},
    );
    assert.deepEqual(
      bad.slice(0, 3),
      [],
      `no request ends otherwise (${bad.length} of ${all.length} did; outcomes ${JSON.stringify(kinds)})`,
    );
  });

  test('a 503 during the drain is shutting_down problem+json with Retry-After and Connection: close', () => {
    const refusals = exchanges().filter((ex): ex is Answer => ex.kind === 'response' && ex.status === 503);
    for (const ex of refusals) {
      assert.equal(ex.headers['content-type'], 'application/problem+json', 'a problem+json body');
      assert.equal(JSON.parse(ex.body.toString('utf8')).code, 'shutting_down', 'code shutting_down');
      assert.ok(Number(ex.headers['retry-after']) >= 1, 'a Retry-After header');
      assert.ok(ex.close, 'Connection: close');
    }
  });

  test('each connection of the stream sees 200s, then 503s each ending its TCP connection, then only refused connections', () => {
    stream.records.forEach((lane, n) => {
      const phase = lane.map((r) =>
        r.exchange.kind === 'refused' ? 2 : r.exchange.kind === 'response' && r.exchange.status === 503 ? 1 : 0,
      );
      assert.ok(
        phase.every((p, i) => i === 0 || p >= phase[i - 1]),
        `connection ${n}: no 200 after a 503 or a refusal (${phase.join('')})`,
      );
      // A 503 closes its connection. The lane's next one may still reach a thread whose listener is
      // not yet closed (THREADS=2: each thread closes its own), and be told 503 again on that new one.
      for (let i = 0; i + 1 < lane.length; i++) {
        const next = lane[i + 1].exchange;
        if (phase[i] === 1 && next.kind === 'response')
          assert.equal(next.reused, false, `connection ${n}: a 503 closes the connection (request ${i + 1} reused it)`);
      }
    });
  });

  test('the process exits with code 0 within 10 s despite an idle keep-alive client and a half-sent request', () => {
    assert.ok(seen.exit !== null, 'the process exited within 12 s');
    assert.equal(seen.exit!.code, 0, `exit code 0 (${JSON.stringify(seen.exit)}; log:\n${first.log.join('\n')})`);
    assert.ok(seen.exit!.afterMs < 10_000, `within 10 s of SIGTERM (${seen.exit!.afterMs.toFixed(0)} ms)`);
    assert.ok(seen.idleClosed && seen.slowClosed, "the idle and the slow client's connections are closed");
  });

  test('a second signal during the drain is logged and ignored: still exit 0, no error', () => {
    assert.ok(
      first.log.some((l) => /already draining/.test(l)),
      `the second signal is logged (log:\n${first.log.join('\n')})`,
    );
    assert.equal(seen.exit?.code, 0, 'exit code 0');
    assert.ok(
      !first.log.some((l) => /Error|uncaught|not finished/i.test(l)),
      `no error in the log:\n${first.log.join('\n')}`,
    );
  });

  test('after a restart on the same state, /quota shows exactly the usage the answered requests account for', () => {
    const answered = exchanges().filter((ex): ex is Answer => ex.kind === 'response' && ex.status === 200);
    const streamRows = answered.reduce((n, ex) => n + rowsOf(ex), 0);
    assert.deepEqual(
      { used: seen.quotaPro!.used, requests_today: seen.quotaPro!.requests_today },
      { used: seen.knownRows, requests_today: seen.knownRequests + 1 },
      'the pro key: the known sequence, plus this /quota call',
    );
    assert.deepEqual(
      { used: seen.quotaInternal!.used, requests_today: seen.quotaInternal!.requests_today },
      { used: streamRows, requests_today: answered.length + 1 },
      `the internal key: every 200 of the stream (${answered.length}), plus this /quota call`,
    );
  });

  test('the drain is logged within 5 s of the signal, and reached every connection of the stream: 200s, then a 503 or a refusal', (t) => {
    const kinds = exchanges().map((ex) => (ex.kind === 'response' ? ex.status : ex.kind));
    t.diagnostic(
      `signal→drain log ${seen.drainLoggedAt === null ? 'not seen' : `${(seen.drainLoggedAt - seen.signalAt).toFixed(1)} ms`}; exit after ${seen.exit?.afterMs.toFixed(1)} ms; stream ${summary(kinds)}; second SIGTERM sent: ${seen.secondSigtermSent}`,
    );
    assert.ok(seen.drainLoggedAt !== null, `the drain is logged (log:\n${first.log.join('\n')})`);
    assert.ok(
      kinds.filter((k) => k === 200).length >= 200,
      `the stream had its 200 answers before the signal (${summary(kinds)})`,
    );
    const lastOfEach = stream.records.map((lane) => {
      const last = lane.at(-1)?.exchange;
      return last === undefined ? 'none' : last.kind === 'response' ? last.status : last.kind;
    });
    assert.deepEqual(
      lastOfEach.filter((k) => k !== 503 && k !== 'refused'),
      [],
      `each connection's last exchange is a 503 or a refused connection: the drain reached it (${lastOfEach.join(', ')})`,
    );
  });
});

describe('drain of a quiet server (no request in flight, no usage to flush)', () => {
  let qdir: Awaited<ReturnType<typeof tempDir>>;
  let server: ServerProcess;
  /** /healthz on one open connection, asked again and again across the signal until it closes. */
  const health: Exchange[] = [];
  /** An API request sent on an open, idle keep-alive connection once the drain is logged. */
  let late: Exchange | null = null;
  /** Whether that connection was still open when the request was written. */
  let lateOnOpen = false;

  before(async () => {
    qdir = await tempDir('mdq-drain-quiet-');
    server = await startServerProcess({
      snapshot: await fixtureCopy(join(qdir.path, 'snapshot')),
      state: join(qdir.path, 'state'),
    });
    const probe = new KeepAliveClient(server.port);
    const api = new KeepAliveClient(server.port);
    assert.equal((await api.get('/healthz')).kind, 'response', "the API client's connection is open");
    let probing = true;
    const probed = (async () => {
      while (probing) {
        const ex = await probe.get('/healthz');
        health.push(ex);
        if (ex.kind !== 'response') break;
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, 20));
    server.signal('SIGTERM');
    await server.waitForLog(/SIGTERM: draining/, 5000).catch(() => {});
    lateOnOpen = api.connected;
    late = await api.get(MARKETS, { 'x-api-key': server.keys.internal! });
    await within(server.exited, 12_000);
    probing = false;
    await within(probed, 2000);
    probe.close();
    api.close();
  });

  after(async () => {
    await server?.kill();
    await qdir?.cleanup();
  });

  test('/healthz on an open connection answers 503 shutting_down once the signal is handled, never 200 again', () => {
    const statuses = health.map((ex) => (ex.kind === 'response' ? ex.status : ex.kind));
    const firstNot200 = statuses.findIndex((s) => s !== 200);
    assert.ok(firstNot200 > 0, `the probe had 200s before the signal (${summary(statuses)})`);
    assert.ok(
      statuses.slice(firstNot200).every((s) => s !== 200),
      `no 200 after the first 503 (${summary(statuses)})`,
    );
    assert.equal(
      statuses[firstNot200],
      503,
      `the first answer after the signal is a 503, not a dropped connection (${summary(statuses)}; log: ${server.log.join(' | ')})`,
    );
    const refusal = health[firstNot200] as Answer;
    assert.equal(JSON.parse(refusal.body.toString('utf8')).code, 'shutting_down', 'code shutting_down');
    assert.ok(Number(refusal.headers['retry-after']) >= 1, 'with Retry-After');
  });

  test('an API request on an open keep-alive connection after the drain began gets 503 shutting_down with Connection: close', () => {
    assert.ok(lateOnOpen, 'the connection was open when the request was written');
    assert.equal(
      late?.kind,
      'response',
      `the request is answered, not dropped with the connection (${JSON.stringify(late)}; log: ${server.log.join(' | ')})`,
    );
    const ex = late as Answer;
    assert.equal(ex.status, 503, 'status 503');
    assert.equal(JSON.parse(ex.body.toString('utf8')).code, 'shutting_down', 'code shutting_down');
    assert.ok(Number(ex.headers['retry-after']) >= 1, 'with Retry-After');
    assert.ok(ex.close, 'and Connection: close');
  });
});

/** Counts of each outcome, in order of first appearance: `200×812 503×3 refused×4`. */
function summary(outcomes: (number | string)[]): string {
  const n = new Map<string, number>();
  for (const o of outcomes) n.set(String(o), (n.get(String(o)) ?? 0) + 1);
  return [...n].map(([k, v]) => `${k}×${v}`).join(' ');
}
