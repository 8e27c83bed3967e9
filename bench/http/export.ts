// The export part of `npm run bench`: ashare's whole history (every symbol, every row) exported as
// CSV and as Arrow with an internal key from one serving thread pinned to one core: rows a second,
// and the server's memory sampled all along (its own, anonymous memory must stay flat; the data's
// pages, mapped from the edition's files, are counted apart). Then a reader taking 1 MB/s: the
// server's memory while it reads, and the latency of other requests beside it against without it.
// Standalone: node dist/bench/http/export.js --state DIR [--snapshot DIR] [--slow-seconds N]

import { request } from 'node:http';
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

export interface ExportResult {
  runs: ExportRun[];
  slow: SlowReaderRun;
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
    return { runs, slow: { ...slow, alone, beside } };
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
  return lines.join('\n');
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === resolve(new URL(import.meta.url).pathname)) {
  const { values } = parseArgs({
    options: {
      state: { type: 'string' },
      snapshot: { type: 'string' },
      'slow-seconds': { type: 'string', default: '10' },
    },
  });
  if (values.state === undefined) throw new Error('--state DIR is required');
  try {
    const result = await runExport({
      stateDir: values.state,
      snapshotDir: values.snapshot ?? null,
      slowSeconds: Number(values['slow-seconds']),
      log: (line) => process.stderr.write(`[export] ${line}\n`),
    });
    console.log(formatExport(result));
  } finally {
    await stopAll();
  }
}
