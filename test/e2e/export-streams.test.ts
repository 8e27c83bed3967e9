// Exports on the real server with one serving thread: full-speed exports share the thread with
// other requests, a reader that pauses past uWS's idle timeout is served whole, a reader that
// stops for good is cut at EXPORT_STALL_S with the rows not sent given back, and a request
// pipelined behind an export is answered after it.

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { connect, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { generateDemoSnapshot } from '../../loaders/demo/index.js';
import { KeepAliveClient } from '../helpers/keep-alive.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

/** The stall limit the server runs with: longer than the pause below, shorter than a test's patience. */
const STALL_S = 20;
/** Longer than uWS's own idle timeout (10 s), which used to cut a paused export. */
const PAUSE_MS = 13_000;
const WHOLE = '/api/v1/ashare/export?format=ndjson';

/** An HTTP/1.1 response with a chunked body, read from raw bytes; `rest` is what follows it on the connection. */
interface Chunked {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  complete: boolean;
  rest: Buffer;
}

/** Reads one response (a head, then a chunked body) from `raw`. */
function parseChunked(raw: Buffer): Chunked {
  const headEnd = raw.indexOf('\r\n\r\n');
  assert.ok(headEnd > 0, 'a response head arrived');
  const [statusLine, ...lines] = raw.toString('latin1', 0, headEnd).split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const parts: Buffer[] = [];
  let at = headEnd + 4;
  for (;;) {
    if (raw[at] === 13 && raw[at + 1] === 10) at += 2; // the CRLF ending the chunk before
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0)
      return {
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: Buffer.concat(parts),
        complete: false,
        rest: Buffer.alloc(0),
      };
    const size = Number.parseInt(raw.toString('latin1', at, lineEnd), 16);
    at = lineEnd + 2;
    if (size === 0) {
      at += 2; // the empty trailer line
      return {
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: Buffer.concat(parts),
        complete: true,
        rest: raw.subarray(at),
      };
    }
    parts.push(raw.subarray(at, Math.min(at + size, raw.length)));
    if (at + size > raw.length)
      return {
        status: Number(statusLine.split(' ')[1]),
        headers,
        body: Buffer.concat(parts),
        complete: false,
        rest: Buffer.alloc(0),
      };
    at += size;
  }
}

/** A raw connection that keeps every byte it reads, and can stop reading (its buffers fill, the server backs up). */
class RawReader {
  readonly socket: Socket;
  private readonly parts: Buffer[] = [];
  bytes = 0;
  readonly closed: Promise<void>;
  private waiters: { bytes: number; resolve: () => void }[] = [];

  constructor(port: number) {
    this.socket = connect(port, '127.0.0.1');
    this.socket.on('error', () => {}); // a cut may reset the connection: what arrived is judged
    this.socket.on('data', (chunk: Buffer) => {
      this.parts.push(chunk);
      this.bytes += chunk.length;
      this.waiters = this.waiters.filter((w) => (this.bytes >= w.bytes ? (w.resolve(), false) : true));
    });
    this.closed = new Promise((resolve) => this.socket.on('close', () => resolve()));
  }

  send(text: string): void {
    this.socket.write(text);
  }

  /** Resolves once `bytes` have arrived. */
  received(bytes: number): Promise<void> {
    return this.bytes >= bytes ? Promise.resolve() : new Promise((resolve) => this.waiters.push({ bytes, resolve }));
  }

  get raw(): Buffer {
    return Buffer.concat(this.parts);
  }
}

const get = (path: string, key: string): string =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${key}\r\n\r\n`;

/**
 * A reader in a process of its own, taking `path` whole at full speed on a raw socket (no HTTP
 * parsing to slow it: it keeps up with the server); resolves with the sha256 of the body it
 * de-chunked, or a note of what went wrong.
 */
function fullSpeedReader(port: number, path: string, key: string): { done: Promise<string> } {
  const script = `
    const { connect } = require('node:net');
    const { createHash } = require('node:crypto');
    const parts = [];
    const s = connect(${port}, '127.0.0.1', () =>
      s.write('GET ${path} HTTP/1.1\\r\\nHost: 127.0.0.1\\r\\nX-API-Key: ${key}\\r\\nConnection: close\\r\\n\\r\\n'));
    s.on('data', (c) => parts.push(c));
    s.on('close', () => {
      const raw = Buffer.concat(parts);
      let at = raw.indexOf('\\r\\n\\r\\n') + 4;
      const hash = createHash('sha256');
      for (;;) {
        if (raw[at] === 13 && raw[at + 1] === 10) at += 2;
        const end = raw.indexOf('\\r\\n', at);
        if (end < 0) return process.stdout.write('incomplete after ' + raw.length + ' bytes');
        const size = parseInt(raw.toString('latin1', at, end), 16);
        at = end + 2;
        if (size === 0) return process.stdout.write(hash.digest('hex'));
        hash.update(raw.subarray(at, at + size));
        at += size;
      }
    });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  return { done: new Promise((resolve) => child.on('exit', () => resolve(out))) };
}

describe('exports on one serving thread', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let server: ServerProcess;
  let internal: string;
  /** Ashare's whole history as NDJSON, taken alone: what every reader must get. */
  let reference: Buffer;
  /** The export's first symbol: a short export of it. */
  let firstSymbol = '';

  before(async () => {
    dir = await tempDir('mdq-export-streams-');
    const snapshot = join(dir.path, 'demo');
    // About 450,000 ashare rows: an NDJSON export of some 60 MB, more than a socket's buffers hold.
    await generateDemoSnapshot(snapshot, { symbolScale: 0.1, years: 6, progress: false });
    server = await startServerProcess({
      snapshot,
      state: join(dir.path, 'state'),
      env: { THREADS: '1', EXPORT_STALL_S: String(STALL_S), EXPORTS_PER_KEY: '2' },
      timeoutMs: 120_000,
    });
    internal = server.keys.internal!;
    const res = await fetch(`http://127.0.0.1:${server.port}${WHOLE}`, { headers: { 'x-api-key': internal } });
    assert.equal(res.status, 200);
    reference = Buffer.from(await res.arrayBuffer());
    assert.ok(reference.length > 30_000_000, `the export is large (${reference.length} B)`);
    firstSymbol = (JSON.parse(reference.toString('utf8', 0, reference.indexOf('\n'))) as { symbol: string }).symbol;
  });
  after(async () => {
    await server?.kill();
    await dir?.cleanup();
  });

  test('small requests are answered while four full-speed exports run on the same thread, and each export arrives whole', async () => {
    const readers = [0, 1, 2, 3].map(() => fullSpeedReader(server.port, WHOLE, internal));
    let running = true;
    const ended = Promise.race(readers.map((r) => r.done)).then(() => (running = false));
    const client = new KeepAliveClient(server.port);
    let answeredBeside = 0;
    let slowest = 0;
    // Until the first export ends: each answer that came while every export was still under way counts.
    while (running) {
      const t = performance.now();
      const ex = await client.get('/api/v1/quota', { 'x-api-key': internal });
      assert.equal(ex.kind === 'response' && ex.status, 200, '/quota answers 200 beside the exports');
      if (running) (answeredBeside += 1), (slowest = Math.max(slowest, performance.now() - t));
    }
    client.close();
    await ended;
    const hashes = await Promise.all(readers.map((r) => r.done));
    const expected = createHash('sha256').update(reference).digest('hex');
    assert.deepEqual(
      hashes,
      [0, 1, 2, 3].map(() => expected),
      'every export arrived whole, byte for byte',
    );
    // One request after another: while a held thread answers between its exports' chunks only when
    // their sockets push back (here 28–99 answers, the slowest 0.5–0.7 s), turns of a few
    // milliseconds answer hundreds (here 600–820, the slowest 0.09–0.15 s).
    assert.ok(
      answeredBeside >= 250,
      `${answeredBeside} small requests were answered while the exports ran, the slowest in ${slowest.toFixed(0)} ms`,
    );
  });

  test(`a reader that pauses ${PAUSE_MS / 1000} s midway gets the whole export; one that stops for good is cut at EXPORT_STALL_S and keeps only the rows it took`, async () => {
    const enterprise = server.keys.enterprise!;
    const quota = async (key: string): Promise<{ export_used: number }> =>
      (
        await fetch(`http://127.0.0.1:${server.port}/api/v1/quota`, { headers: { 'x-api-key': key } })
      ).json() as Promise<{ export_used: number }>;
    const usedBefore = (await quota(enterprise)).export_used;
    const rows = reference.toString('latin1').split('\n').length - 1;

    const pausing = new RawReader(server.port);
    pausing.send(get(WHOLE, internal));
    const stopping = new RawReader(server.port);
    const logFrom = server.log.length;
    stopping.send(get(WHOLE, enterprise));
    await Promise.all([pausing.received(1_000_000), stopping.received(1_000_000)]);
    pausing.socket.pause();
    stopping.socket.pause(); // for good
    const stoppedAt = performance.now();
    await new Promise((resolve) => setTimeout(resolve, PAUSE_MS));
    pausing.socket.resume();
    const whole = await Promise.race([
      pausing.received(reference.length).then(() => true),
      pausing.closed.then(() => false),
    ]);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the end of the body
    const paused = parseChunked(pausing.raw);
    assert.ok(
      whole && paused.complete,
      `the paused reader's export ended with its last chunk (${pausing.bytes} B arrived)`,
    );
    assert.ok(paused.body.equals(reference), 'the paused reader got the export byte for byte');
    pausing.socket.destroy();

    const line = await server.waitForLog(/streamed answer cut/, (STALL_S + 15) * 1000, logFrom);
    const cutAfter = (performance.now() - stoppedAt) / 1000;
    assert.ok(
      cutAfter >= STALL_S - 1,
      `the stopped reader was cut after ${cutAfter.toFixed(1)} s, not before EXPORT_STALL_S`,
    );
    const cut = JSON.parse(line) as { reason: string; rows_sent: number; rows_given_back: number };
    assert.equal(cut.reason, 'stalled');
    assert.equal(cut.rows_sent + cut.rows_given_back, rows, 'the rows sent and given back make the export');
    assert.ok(cut.rows_given_back > 0 && cut.rows_sent > 0, 'some rows went, the rest were given back');
    stopping.socket.resume();
    await stopping.closed;
    const taken = stopping.raw.length > 0 ? parseChunked(stopping.raw) : null;
    assert.ok(taken !== null && !taken.complete, 'the stopped reader sees an incomplete export');
    const linesTaken = taken.body.toString('latin1').split('\n').length - 1;
    assert.ok(
      linesTaken >= cut.rows_sent,
      `the reader holds at least the ${cut.rows_sent} rows counted sent (${linesTaken})`,
    );
    assert.equal(
      (await quota(enterprise)).export_used - usedBefore,
      cut.rows_sent,
      'the export allowance is charged the rows sent only',
    );
  });

  test('a request pipelined behind an export is answered after it, in order, on the same connection', async () => {
    const reader = new RawReader(server.port);
    reader.send(get(WHOLE, internal));
    await reader.received(2_000_000);
    reader.send(get('/api/v1/quota', internal)); // while the export is under way
    const quotaAnswer = new Promise<void>((resolve) => {
      const check = (): void => {
        const raw = reader.raw;
        const export_ = parseChunked(raw);
        if (export_.complete && export_.rest.includes('"plan"') && export_.rest.toString().trimEnd().endsWith('}'))
          resolve();
        else setTimeout(check, 50);
      };
      check();
    });
    await Promise.race([
      quotaAnswer,
      reader.closed.then(() => assert.fail(`the connection closed after ${reader.bytes} B`)),
    ]);
    const export_ = parseChunked(reader.raw);
    assert.ok(export_.body.equals(reference), 'the export arrived whole');
    assert.match(export_.rest.toString('latin1'), /^HTTP\/1\.1 200 OK\r\n/, 'then the pipelined request was answered');
    reader.socket.destroy();
  });

  /** The enterprise key's rows exported today. */
  const exported = async (): Promise<number> =>
    (
      (await (
        await fetch(`http://127.0.0.1:${server.port}/api/v1/quota`, {
          headers: { 'x-api-key': server.keys.enterprise! },
        })
      ).json()) as { export_used: number }
    ).export_used;

  test('a request in the same packet as an export: uWS closes the connection before the export begins, and nothing is charged', async () => {
    const before = await exported();
    const reader = new RawReader(server.port);
    reader.send(get(WHOLE, server.keys.enterprise!) + get('/api/v1/quota', server.keys.enterprise!));
    await reader.closed;
    assert.ok(!parseChunked(reader.raw.length > 0 ? reader.raw : Buffer.from('HTTP/1.1 0 x\r\n\r\n')).complete);
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(await exported(), before, 'the export was not charged');
  });

  test('a request pipelined behind an export whose reader then stops: the check of the connection closes it, and the rows not sent are given back', async () => {
    const before = await exported();
    const reader = new RawReader(server.port);
    const logFrom = server.log.length;
    reader.send(get(WHOLE, server.keys.enterprise!));
    await reader.received(1_000_000);
    reader.send(get('/api/v1/quota', server.keys.enterprise!));
    reader.socket.pause();
    const line = await server.waitForLog(/streamed answer cut/, 15_000, logFrom);
    const cut = JSON.parse(line) as { reason: string; rows_sent: number; rows_given_back: number };
    assert.equal(cut.reason, 'read');
    assert.ok(cut.rows_given_back > 0);
    assert.equal((await exported()) - before, cut.rows_sent, 'charged the rows sent only');
    reader.socket.destroy();
  });

  test('EXPORTS_PER_KEY: a third export of a key with two under way is a 429 too_many_exports; once one ends, another may begin', async () => {
    const readers = [new RawReader(server.port), new RawReader(server.port)];
    for (const r of readers) r.send(get(WHOLE, server.keys.enterprise!));
    await Promise.all(readers.map((r) => r.received(1_000_000)));
    for (const r of readers) r.socket.pause();
    const third = await fetch(`http://127.0.0.1:${server.port}${WHOLE}`, {
      headers: { 'x-api-key': server.keys.enterprise! },
    });
    assert.equal(third.status, 429);
    assert.equal(((await third.json()) as { code: string }).code, 'too_many_exports');
    assert.equal(third.headers.get('retry-after'), '1');
    const internal = await fetch(`http://127.0.0.1:${server.port}${WHOLE}&symbols=${firstSymbol}`, {
      headers: { 'x-api-key': server.keys.internal! },
    });
    assert.equal(internal.status, 200, 'an internal key is not limited');
    await internal.arrayBuffer();
    readers[0].socket.destroy();
    await new Promise((resolve) => setTimeout(resolve, 3000)); // seen gone within about 2 s
    const next = await fetch(`http://127.0.0.1:${server.port}${WHOLE}&symbols=${firstSymbol}`, {
      headers: { 'x-api-key': server.keys.enterprise! },
    });
    assert.equal(next.status, 200, 'one ended: another may begin');
    await next.arrayBuffer();
    readers[1].socket.destroy();
  });
});

describe('an export cut by a drain', () => {
  test('SIGTERM cuts an export under way: the rows not sent are given back, and that is what the key has used after a restart', async () => {
    const dir = await tempDir('mdq-export-drain-');
    try {
      const snapshot = join(dir.path, 'demo');
      await generateDemoSnapshot(snapshot, { symbolScale: 0.1, years: 6, progress: false });
      const state = join(dir.path, 'state');
      const first = await startServerProcess({ snapshot, state, env: { THREADS: '1' }, timeoutMs: 120_000 });
      const enterprise = first.keys.enterprise!;
      const reader = new RawReader(first.port);
      reader.send(get(WHOLE, enterprise));
      await reader.received(1_000_000);
      reader.socket.pause();
      const from = first.log.length;
      first.signal('SIGTERM');
      const line = await first.waitForLog(/streamed answer cut/, 10_000, from);
      const cut = JSON.parse(line) as { reason: string; rows_sent: number; rows_given_back: number };
      assert.equal(cut.reason, 'closing');
      assert.ok(cut.rows_given_back > 0);
      assert.equal((await first.exited).code, 0);
      reader.socket.destroy();
      const second = await startServerProcess({ state, env: { THREADS: '1' }, timeoutMs: 120_000 });
      try {
        const quota = (await (
          await fetch(`http://127.0.0.1:${second.port}/api/v1/quota`, { headers: { 'x-api-key': enterprise } })
        ).json()) as { export_used: number };
        assert.equal(quota.export_used, cut.rows_sent, 'after the restart the key has used the rows sent only');
      } finally {
        await second.kill();
      }
    } finally {
      await dir.cleanup();
    }
  });
});
