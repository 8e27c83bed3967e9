// The export part of `npm run bench`: ashare's whole history (every symbol, every row) exported as
// CSV and as Arrow with an internal key from one serving thread pinned to one core: rows a second,
// and the server's memory sampled all along (its own, anonymous memory must stay flat; the data's
// pages, mapped from the edition's files, are counted apart). Then a reader taking 1 MB/s: the
// server's memory while it reads, and the latency of other requests beside it against without it.
// Then the thread's fairness: small requests (distinct, one after another) while 0, 1 and 20
// readers (curl, each its own process) take ashare's whole history as NDJSON at full speed; and
// two readers no socket timeout may cut: one taking 50 KiB/s, one pausing 60 s midway.
// Standalone: node dist/bench/http/export.js --state DIR [--snapshot DIR] [--slow-seconds N] [--pause-seconds N]

import { spawn } from 'node:child_process';
import { Agent, request } from 'node:http';
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { RecordBatchReader } from 'apache-arrow';
import { stopAll } from './children.js';
import { procFigures } from './memory.js';
import { internalKey, startOurServer } from './servers.js';

const MiB = 1024 * 1024;

export interface ExportOptions {
  stateDir: string;
  snapshotDir: string | null;
  /** How long the 1 MB/s reader reads. */
  slowSeconds: number;
  /** How long each fairness probe runs, and how long the pausing reader pauses. */
  probeSeconds: number;
  pauseSeconds: number;
  log: (line: string) => void;
}

/** One format's whole export. */
export interface ExportRun {
  format: 'csv' | 'arrow';
  rows: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  /** The server's anonymous memory: before, and the lowest and highest sampled during the export. */
  anonBefore: number;
  anonMin: number;
  anonMax: number;
  /** File-backed pages mapped at the end (the data read in place). */
  fileAfter: number;
}

export interface SlowReaderRun {
  seconds: number;
  bytes: number;
  anonMin: number;
  anonMax: number;
  /** Latency of K-line requests of 500 symbols, alone and beside the slow reader (ms). */
  alone: Latency;
  beside: Latency;
}

interface Latency {
  requests: number;
  p50: number;
  p99: number;
}

/** Small requests on the export's thread while `exports` full-speed exports run beside them. */
export interface FairnessRun {
  exports: number;
  requests: number;
  p50: number;
  p99: number;
  max: number;
  /** Bytes the exports took meanwhile (all of them together), per second. */
  exportBytesPerSecond: number;
}

/** A reader no socket timeout may cut: it ends with the whole export, or says where it stopped. */
export interface PatientRun {
  label: string;
  expectedBytes: number;
  bytes: number;
  complete: boolean;
  seconds: number;
  anonMin: number;
  anonMax: number;
}

export interface ExportResult {
  runs: ExportRun[];
  slow: SlowReaderRun;
  fairness: FairnessRun[];
  patient: PatientRun[];
}

/** Samples the server's memory every 100 ms until stopped. */
function sampler(pid: number): { stop(): { min: number; max: number; file: number } } {
  let min = Number.POSITIVE_INFINITY;
  let max = 0;
  let file = 0;
  const take = (): void => {
    const f = procFigures(pid);
    if (f === null) return;
    min = Math.min(min, f.anon);
    max = Math.max(max, f.anon);
    file = f.file;
  };
  take();
  const timer = setInterval(take, 100);
  return {
    stop() {
      clearInterval(timer);
      take();
      return { min, max, file };
    },
  };
}

/** GET `path` as a stream of chunks. */
function stream(port: number, path: string, key: string): Promise<import('node:http').IncomingMessage> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { 'x-api-key': key }, agent: false }, (res) => {
      if (res.statusCode !== 200) fail(new Error(`${path}: ${res.statusCode}`));
      else done(res);
    });
    req.on('error', fail);
    req.end();
  });
}

/** The whole export in `format`, its rows counted as they arrive (CSV lines; Arrow record batches read by apache-arrow). */
async function exportOnce(port: number, key: string, pid: number, format: 'csv' | 'arrow'): Promise<ExportRun> {
  const anonBefore = procFigures(pid)?.anon ?? NaN;
  const memory = sampler(pid);
  const started = performance.now();
  const res = await stream(port, `/api/v1/ashare/export?format=${format}`, key);
  let rows = 0;
  let bytes = 0;
  if (format === 'csv') {
    for await (const chunk of res as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) rows++;
    }
    rows--; // the header
  } else {
    const counted = (async function* () {
      for await (const chunk of res as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        yield chunk;
      }
    })();
    for await (const batch of await RecordBatchReader.from(counted)) rows += batch.numRows;
  }
  const seconds = (performance.now() - started) / 1000;
  const { min, max, file } = memory.stop();
  return {
    format,
    rows,
    bytes,
    seconds,
    rowsPerSecond: rows / seconds,
    anonBefore,
    anonMin: min,
    anonMax: max,
    fileAfter: file,
  };
}

/** p50 and p99 of K-lines 100 of `symbols` asked one after another for `seconds`. */
async function latency(port: number, key: string, symbols: string[], seconds: number): Promise<Latency> {
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  for (let n = 0; performance.now() < end; n++) {
    const t = performance.now();
    const res = await stream(
      port,
      `/api/v1/ashare/klines/${symbols[n % symbols.length]}?limit=100&offset=${n % 7}`,
      key,
    );
    for await (const _ of res as AsyncIterable<Buffer>);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const at = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { requests: times.length, p50: at(0.5), p99: at(0.99) };
}

/** A reader taking `bytesPerSecond` of a CSV export for `seconds`, then leaving. */
async function slowRead(port: number, key: string, pid: number, seconds: number, bytesPerSecond: number) {
  const res = await stream(port, '/api/v1/ashare/export?format=csv', key);
  const memory = sampler(pid);
  let bytes = 0;
  const started = performance.now();
  await new Promise<void>((done) => {
    res.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      const elapsed = (performance.now() - started) / 1000;
      const ahead = bytes / bytesPerSecond - elapsed; // seconds read ahead of the pace
      if (elapsed >= seconds) return (res.destroy(), done());
      if (ahead > 0) res.pause(), setTimeout(() => res.resume(), ahead * 1000);
    });
    res.on('close', () => done());
  });
  const { min, max } = memory.stop();
  return { seconds: (performance.now() - started) / 1000, bytes, anonMin: min, anonMax: max };
}

/**
 * Full-speed readers of ashare's whole history as NDJSON (curl, to /dev/null), each restarted when
 * done, until `stop`; each curl ends itself after `seconds` (its bytes still counted).
 */
function fullSpeedReaders(port: number, key: string, count: number, seconds: number): { stop(): Promise<number> } {
  const end = performance.now() + seconds * 1000;
  let stopped = false;
  let bytes = 0;
  const live = new Set<import('node:child_process').ChildProcess>();
  const start = (): void => {
    const left = (end - performance.now()) / 1000;
    if (stopped || left <= 0.1) return;
    const curl = spawn(
      'curl',
      [
        '-s',
        '-o',
        '/dev/null',
        '-m',
        left.toFixed(2),
        '-w',
        '%{size_download}',
        '-H',
        `x-api-key: ${key}`,
        `http://127.0.0.1:${port}/api/v1/ashare/export?format=ndjson`,
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    live.add(curl);
    let out = '';
    curl.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    curl.on('exit', () => {
      live.delete(curl);
      bytes += Number(out) || 0;
      start();
    });
  };
  for (let i = 0; i < count; i++) start();
  return {
    async stop() {
      stopped = true;
      await Promise.all(
        [...live].map(
          (c) =>
            new Promise<void>((done) => {
              c.once('exit', () => done());
              c.kill('SIGINT');
            }),
        ),
      );
      return bytes;
    },
  };
}

/** Small requests, one after another on one kept-alive connection, for `seconds`: /quota and K-lines 5 of `symbols` in turn, each distinct. */
async function probe(port: number, key: string, symbols: string[], seconds: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const times: number[] = [];
  const end = performance.now() + seconds * 1000;
  try {
    for (let n = 0; performance.now() < end; n++) {
      const path =
        n % 2 === 0
          ? '/api/v1/quota'
          : `/api/v1/ashare/klines/${symbols[(n >> 1) % symbols.length]}?limit=5&offset=${(n >> 1) % 97}`;
      const t = performance.now();
      await new Promise<void>((done, fail) => {
        const req = request({ host: '127.0.0.1', port, path, agent, headers: { 'x-api-key': key } }, (res) => {
          res.resume();
          res.on('end', () => (res.statusCode === 200 ? done() : fail(new Error(`${path}: ${res.statusCode}`))));
        });
        req.on('error', fail);
        req.end();
      });
      times.push(performance.now() - t);
    }
  } finally {
    agent.destroy();
  }
  times.sort((a, b) => a - b);
  const at = (q: number): number => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { requests: times.length, p50: at(0.5), p99: at(0.99), max: times[times.length - 1] };
}

/** Small requests beside 0, 1 and 20 full-speed exports on the same (only) serving thread. */
async function fairness(port: number, key: string, symbols: string[], seconds: number, log: ExportOptions['log']) {
  const runs: FairnessRun[] = [];
  for (const exports of [0, 1, 20]) {
    log(`export: small requests beside ${exports} full-speed export(s) for ${seconds} s`);
    const t0 = performance.now();
    const readers = fullSpeedReaders(port, key, exports, seconds + 1);
    await new Promise((r) => setTimeout(r, exports === 0 ? 0 : 500)); // the exports under way first
    const figures = await probe(port, key, symbols, seconds);
    await new Promise((r) => setTimeout(r, Math.max(0, t0 + (seconds + 1.5) * 1000 - performance.now())));
    const bytes = await readers.stop(); // each has ended by itself by now
    runs.push({ exports, ...figures, exportBytesPerSecond: bytes / (seconds + 1) });
  }
  return runs;
}

/**
 * One export read through a raw socket: the whole answer, chunked framing and all, counted until
 * its last chunk; `pace` decides after each read how long to wait before the next (a socket's
 * receive buffer kept small, so the server's side backs up).
 */
function patientRead(
  port: number,
  key: string,
  path: string,
  pace: (bytes: number, elapsedMs: number) => number,
): Promise<{ bytes: number; complete: boolean; seconds: number }> {
  return new Promise((done) => {
    const socket = connect({ host: '127.0.0.1', port });
    const started = performance.now();
    let bytes = 0;
    let tail = '';
    let complete = false;
    socket.setNoDelay(true);
    socket.on('connect', () => socket.write(`GET ${path} HTTP/1.1\r\nHost: bench\r\nX-API-Key: ${key}\r\n\r\n`));
    socket.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      tail = (tail + chunk.toString('latin1', Math.max(0, chunk.length - 16))).slice(-16);
      if (tail.endsWith('\r\n0\r\n\r\n')) return ((complete = true), socket.destroy());
      const wait = pace(bytes, performance.now() - started);
      if (wait > 0) socket.pause(), setTimeout(() => socket.resume(), wait);
    });
    socket.on('close', () => done({ bytes, complete, seconds: (performance.now() - started) / 1000 }));
    socket.on('error', () => {});
  });
}

/** A reader at 50 KiB/s and one pausing `pauseSeconds` after its first MB, each over an export of a few MB. */
async function patientReaders(
  port: number,
  key: string,
  pid: number,
  symbols: string[],
  pauseSeconds: number,
  log: ExportOptions['log'],
): Promise<PatientRun[]> {
  const path = `/api/v1/ashare/export?format=csv&symbols=${symbols.slice(0, 40).join(',')}`;
  const expected = await new Promise<number>((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, headers: { 'x-api-key': key }, agent: false }, (res) => {
      let n = 0;
      res.on('data', (c: Buffer) => (n += c.length));
      res.on('end', () => done(n));
    });
    req.on('error', fail);
    req.end();
  });
  const runs: PatientRun[] = [];
  const readers: [string, (bytes: number, ms: number) => number][] = [
    ['50 KiB/s', (bytes, ms) => (bytes / (50 * 1024)) * 1000 - ms],
    [
      `pauses ${pauseSeconds} s after 1 MB`,
      (bytes) => (bytes >= MiB && bytes - MiB < 70_000 ? pauseSeconds * 1000 : 0),
    ],
  ];
  for (const [label, pace] of readers) {
    log(
      `export: a reader that ${label.startsWith('pauses') ? label : `takes ${label}`} (${(expected / MiB).toFixed(1)} MB)`,
    );
    let paused = false;
    const memory = sampler(pid);
    const r = await patientRead(port, key, path, (bytes, ms) => {
      if (label.startsWith('pauses')) {
        if (paused || bytes < MiB) return 0;
        paused = true;
      }
      return pace(bytes, ms);
    });
    const { min, max } = memory.stop();
    runs.push({ label, expectedBytes: expected, ...r, anonMin: min, anonMax: max });
  }
  return runs;
}

export async function runExport(o: ExportOptions): Promise<ExportResult> {
  const key = await internalKey(o.stateDir, o.log);
  const server = await startOurServer({ stateDir: o.stateDir, snapshotDir: o.snapshotDir, core: 0, log: o.log });
  try {
    const pid = server.child.pid;
    const runs: ExportRun[] = [];
    for (const format of ['csv', 'arrow'] as const) {
      o.log(`export: ashare's whole history as ${format}`);
      runs.push(await exportOnce(server.port, key, pid, format));
    }
    const listed = await stream(server.port, '/api/v1/ashare/symbols?limit=500', key);
    let text = '';
    for await (const chunk of listed as AsyncIterable<Buffer>) text += chunk.toString('utf8');
    const symbols = (JSON.parse(text) as { data: { symbol: string }[] }).data.map((s) => s.symbol);
    o.log('export: K-line latency alone, then beside a reader taking 1 MB/s');
    const alone = await latency(server.port, key, symbols, Math.min(5, o.slowSeconds));
    const reading = slowRead(server.port, key, pid, o.slowSeconds, MiB);
    const beside = await latency(server.port, key, symbols, Math.min(5, o.slowSeconds));
    const slow = await reading;
    const patient = await patientReaders(server.port, key, pid, symbols, o.pauseSeconds, o.log);
    const fair = await fairness(server.port, key, symbols, o.probeSeconds, o.log);
    return { runs, slow: { ...slow, alone, beside }, fairness: fair, patient };
  } finally {
    await server.child.stop();
  }
}

const mb = (bytes: number): string => `${(bytes / MiB).toFixed(1)} MB`;

export function formatExport(r: ExportResult): string {
  const lines = [
    '| format | rows | bytes | seconds | rows/s | anonymous before | min–max during | file-backed after |',
    '|---|---|---|---|---|---|---|---|',
    ...r.runs.map(
      (x) =>
        `| ${x.format} | ${x.rows.toLocaleString('en-US')} | ${mb(x.bytes)} | ${x.seconds.toFixed(2)} | ${Math.round(x.rowsPerSecond).toLocaleString('en-US')} | ${mb(x.anonBefore)} | ${mb(x.anonMin)}–${mb(x.anonMax)} | ${mb(x.fileAfter)} |`,
    ),
  ];
  const s = r.slow;
  lines.push(
    '',
    `A reader taking 1 MB/s for ${s.seconds.toFixed(1)} s (${mb(s.bytes)}): the server's anonymous memory ${mb(s.anonMin)}–${mb(s.anonMax)}; ` +
      `K-lines 100 of 500 symbols one after another: alone p50 ${s.alone.p50.toFixed(2)} ms, p99 ${s.alone.p99.toFixed(2)} ms (${s.alone.requests} requests); ` +
      `beside it p50 ${s.beside.p50.toFixed(2)} ms, p99 ${s.beside.p99.toFixed(2)} ms (${s.beside.requests} requests).`,
  );
  lines.push(
    '',
    'Small requests (/quota and K-lines 5, distinct, one after another) on the thread of full-speed NDJSON exports of ashare:',
    '',
    '| exports beside | requests | p50 ms | p99 ms | max ms | exports took |',
    '|---|---|---|---|---|---|',
    ...r.fairness.map(
      (f) =>
        `| ${f.exports} | ${f.requests} | ${f.p50.toFixed(2)} | ${f.p99.toFixed(2)} | ${f.max.toFixed(1)} | ${mb(f.exportBytesPerSecond)}/s |`,
    ),
    '',
    '| reader | export | took | complete | seconds | anonymous min–max |',
    '|---|---|---|---|---|---|',
    ...r.patient.map(
      (p) =>
        `| ${p.label} | ${mb(p.expectedBytes)} | ${mb(p.bytes)} | ${p.complete ? 'yes' : '**no**'} | ${p.seconds.toFixed(1)} | ${mb(p.anonMin)}–${mb(p.anonMax)} |`,
    ),
  );
  return lines.join('\n');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const { values } = parseArgs({
    options: {
      state: { type: 'string' },
      snapshot: { type: 'string' },
      'slow-seconds': { type: 'string', default: '10' },
      'probe-seconds': { type: 'string', default: '10' },
      'pause-seconds': { type: 'string', default: '60' },
    },
  });
  if (values.state === undefined) throw new Error('--state DIR is required');
  try {
    const result = await runExport({
      stateDir: values.state,
      snapshotDir: values.snapshot ?? null,
      slowSeconds: Number(values['slow-seconds']),
      probeSeconds: Number(values['probe-seconds']),
      pauseSeconds: Number(values['pause-seconds']),
      log: (line) => process.stderr.write(`[export] ${line}\n`),
    });
    console.log(formatExport(result));
  } finally {
    await stopAll();
  }
}
