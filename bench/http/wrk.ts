// wrk as the load tool: found or installed, run on one connection pool, its Lua summary parsed into figures.

import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChild } from './children.js';
import { watchCpu } from './cpu-time.js';
import { pinned } from './pinning.js';

/** The figures of one wrk run. Latencies are in milliseconds. */
export interface WrkResult {
  rps: number;
  p50: number;
  p99: number;
  p999: number;
  max: number;
  /** Responses with a status ≥ 400: what wrk counts as status errors (no route here answers 1xx/3xx). */
  non2xx: number;
  /** Socket errors: connect + read + write + timeout. */
  errors: number;
  requests: number;
  seconds: number;
  /** Bytes received per response, headers included (shows both sides sent the same size). */
  bytesPerResponse: number;
  /** Busy share of wrk's core during the run (near 1: the load tool may be the limit). */
  wrkCpu: number | null;
}

export interface WrkOptions {
  url: string;
  headers?: Record<string, string>;
  connections: number;
  seconds: number;
  /** Core to pin wrk to (taskset), or null. */
  core: number | null;
  /**
   * Approximate target rate (requests/s over all connections). This wrk (Debian 4.1) has
   * no `-R` (that is wrk2), so the rate comes from the Lua `delay()` hook: each connection
   * waits connections/rate between a response and its next request. It is closed-loop,
   * so the achieved rate is a little lower and queueing delay is not counted (no
   * coordinated-omission correction): read `rps` for what was really offered.
   */
  rate?: number;
  /** A header whose value turns over these values, one per request (many keys: each request its own bucket). */
  rotate?: { header: string; values: readonly string[] };
  /** Paths (and queries) asked in turn instead of the URL's: many distinct requests, not one repeated. */
  paths?: readonly string[];
}

/** Why wrk cannot be used here, or null when `wrk` runs. */
function wrkMissing(): string | null {
  const out = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  return out.error ? `wrk is not installed (${(out.error as NodeJS.ErrnoException).code})` : null;
}

/**
 * Makes sure wrk is on PATH: installs the Debian package when it is missing and this
 * process is root with apt-get. Returns null when wrk is usable, else why it is not.
 */
export function ensureWrk(log: (line: string) => void = () => {}): string | null {
  const missing = wrkMissing();
  if (missing === null) return null;
  const hasApt = spawnSync('apt-get', ['--version']).status === 0;
  if (process.getuid?.() !== 0 || !hasApt) {
    return `${missing}; install it with \`apt-get install -y wrk\` (needs root and apt-get, which this process lacks)`;
  }
  log('wrk missing: apt-get update && apt-get install -y wrk');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', 'wrk'],
  ]) {
    const out = spawnSync('apt-get', args, { encoding: 'utf8', env, timeout: 300_000 });
    if (out.status !== 0)
      return `${missing}; apt-get ${args.join(' ')} failed: ${(out.stderr || String(out.error)).trim().split('\n').pop()}`;
  }
  return wrkMissing();
}

/** "wrk debian/4.1.0-3+b2 [epoll]" → that text (wrk -v exits 1 and writes to stdout). */
export function wrkVersion(): string {
  const out = spawnSync('wrk', ['-v'], { encoding: 'utf8' });
  return (out.stdout || out.stderr)
    .split('\n')[0]
    .replace(/\s*Copyright.*$/, '')
    .trim();
}

/** True when this wrk accepts `-R` (wrk2); the Debian wrk does not. */
export function wrkHasRateFlag(): boolean {
  const out = spawnSync('wrk', ['-R', '1', '-d', '1', 'http://127.0.0.1:9/'], { encoding: 'utf8' });
  return !/invalid option/.test(out.stderr + out.stdout);
}

/** A Lua string literal in long brackets; refuses text that could end it or break a header. */
function luaString(text: string): string {
  if (/[\r\n]|\]==\]/.test(text)) throw new Error(`header text not allowed: ${JSON.stringify(text)}`);
  return `[==[${text}]==]`;
}

/**
 * The wrk script: headers set in Lua (so a key never shows in `ps`), an optional delay
 * for the rate mode, and `done()` printing one JSON line. No `response()` hook: it makes
 * wrk hand every response to Lua and would cap the load tool well below the server.
 */
function script(
  headers: Record<string, string>,
  gapMs: number | null,
  rotate?: WrkOptions['rotate'],
  paths?: WrkOptions['paths'],
): string {
  const lines = ['-- written by bench/http/wrk.ts for one run', 'wrk.method = "GET"'];
  for (const [name, value] of Object.entries(headers))
    lines.push(`wrk.headers[ ${luaString(name)} ] = ${luaString(value)}`); // spaced: `t[[` would open a long string
  if (rotate !== undefined || paths !== undefined) {
    // A request() hook costs a Lua call per request; only runs that turn over headers or paths pay it.
    lines.push(
      `local turn, paths, at = { ${(rotate?.values ?? []).map(luaString).join(', ')} }, { ${(paths ?? []).map(luaString).join(', ')} }, 0`,
      'function request()',
      '  at = at + 1',
    );
    if (rotate !== undefined) lines.push(`  wrk.headers[ ${luaString(rotate.header)} ] = turn[at % #turn + 1]`);
    lines.push(
      paths === undefined ? '  return wrk.format()' : '  return wrk.format(nil, paths[at % #paths + 1])',
      'end',
    );
  }
  if (gapMs !== null) {
    // delay() is whole milliseconds: carry the fraction over so the mean gap is exact.
    lines.push(
      `local gap, acc = ${gapMs}, 0`,
      'function delay()',
      '  acc = acc + gap',
      '  local d = math.floor(acc)',
      '  acc = acc - d',
      '  return d',
      'end',
    );
  }
  lines.push(
    'function done(summary, latency, requests)',
    '  local e = summary.errors',
    '  io.write(string.format(\'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"p50_us":%d,"p99_us":%d,"p999_us":%d,"max_us":%d,"status":%d,"connect":%d,"read":%d,"write":%d,"timeout":%d}\\n\',',
    '    summary.requests, summary.duration, summary.bytes, latency:percentile(50), latency:percentile(99), latency:percentile(99.9), latency.max,',
    '    e.status, e.connect, e.read, e.write, e.timeout))',
    'end',
  );
  return `${lines.join('\n')}\n`;
}

interface WrkJson {
  requests: number;
  duration_us: number;
  bytes: number;
  p50_us: number;
  p99_us: number;
  p999_us: number;
  max_us: number;
  status: number;
  connect: number;
  read: number;
  write: number;
  timeout: number;
}

/** Turns the `WRK_JSON` line of wrk's output into figures. */
export function parseWrkOutput(stdout: string): Omit<WrkResult, 'wrkCpu'> {
  const line = stdout.split('\n').find((l) => l.startsWith('WRK_JSON '));
  if (line === undefined) throw new Error(`wrk printed no summary line:\n${stdout}`);
  const j = JSON.parse(line.slice('WRK_JSON '.length)) as WrkJson;
  const seconds = j.duration_us / 1e6;
  return {
    rps: j.requests / seconds,
    p50: j.p50_us / 1000,
    p99: j.p99_us / 1000,
    p999: j.p999_us / 1000,
    max: j.max_us / 1000,
    non2xx: j.status,
    errors: j.connect + j.read + j.write + j.timeout,
    requests: j.requests,
    seconds,
    bytesPerResponse: j.requests > 0 ? j.bytes / j.requests : 0,
  };
}

/** One wrk run: `-t1 -c<N> -d<s>`, keep-alive (wrk's default), bounded by its duration. */
export async function runWrk(options: WrkOptions): Promise<WrkResult> {
  const { connections, seconds } = options;
  if (!/^http:\/\/127\.0\.0\.1:\d+\//.test(options.url))
    throw new Error(`load goes to 127.0.0.1 only, not ${options.url}`);
  // wrk's -d takes whole seconds only (no fractions, no ms unit in 4.1).
  if (!(Number.isInteger(seconds) && seconds >= 1 && seconds <= 600))
    throw new Error(`seconds must be a whole number in [1, 600], got ${seconds}`);
  const dir = mkdtempSync(join(tmpdir(), 'mdq-wrk-'));
  try {
    const lua = join(dir, 'run.lua');
    writeFileSync(
      lua,
      script(
        options.headers ?? {},
        options.rate ? (connections * 1000) / options.rate : null,
        options.rotate,
        options.paths,
      ),
    );
    chmodSync(lua, 0o600); // it may hold an API key
    const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '5s', '-s', lua, options.url];
    const [cmd, argv] = pinned(options.core, 'wrk', args);
    const stderr: string[] = [];
    const child = startChild('wrk', cmd, argv, { onStderr: (l) => stderr.push(l) });
    let stdout = '';
    child.proc.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    const cpu = watchCpu(child.pid);
    // wrk stops by itself after -d; the guard only catches a hung tool.
    const guard = setTimeout(() => void child.stop(1000), (seconds + 30) * 1000);
    const code = await child.exited;
    clearTimeout(guard);
    const wrkCpu = cpu.stop();
    if (code !== 0 || stderr.length > 0) throw new Error(`wrk exited with ${code}:\n${stdout}${stderr.join('\n')}`);
    return { ...parseWrkOutput(stdout), wrkCpu };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
