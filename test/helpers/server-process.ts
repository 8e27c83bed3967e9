// Runs the real server (`node dist/main.js`, or its bundle) as a child process: port, keys, log lines, signals, exit.

import { type ChildProcess, spawn } from 'node:child_process';
import { readFile, rename, symlink } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { BuiltInPlanName } from '../../engine/plans.js';

/** dist/main.js, next to this compiled file's dist/test/helpers/. */
export const MAIN_JS = fileURLToPath(new URL('../../main.js', import.meta.url));
/** dist/main.bundle.js: the same program as one file, the one `npm start` runs (scripts/bundle.js). */
export const MAIN_BUNDLE = fileURLToPath(new URL('../../main.bundle.js', import.meta.url));

/** One started server process; `kill` ends exactly this PID. */
export interface ServerProcess {
  readonly pid: number;
  readonly port: number;
  /** The version named by the `Serving … at` line. */
  readonly version: string;
  /** Keys printed on a first start (an empty object on a restart). */
  readonly keys: Partial<Record<BuiltInPlanName, string>>;
  /** Every line so far: stdout's JSON log lines as written, and stderr's (keys shown once, errors before the log starts). */
  readonly log: string[];
  /** Stdout's lines parsed (each must be a JSON object: the log). */
  readonly logged: Record<string, unknown>[];
  /** Resolves with the first log line at index ≥ `from` matching `pattern`; rejects after `timeoutMs` or on exit. */
  waitForLog(pattern: RegExp, timeoutMs?: number, from?: number): Promise<string>;
  /** Exit code (or signal name) once the process has ended. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>;
  signal(name: NodeJS.Signals): void;
  /** SIGKILL if still running (for `after` hooks); resolves once it has ended. */
  kill(): Promise<void>;
  /** /proc/<pid>/status VmRSS in bytes (Linux), or null once ended. */
  rss(): Promise<number | null>;
}

export interface StartOptions {
  snapshot?: string;
  state: string;
  env?: NodeJS.ProcessEnv;
  /** How long start-up (store + open) may take. */
  timeoutMs?: number;
  /** Extra node flags (e.g. --expose-gc). */
  nodeArgs?: string[];
  /** The port to listen on (default 0: any free one). */
  port?: number;
  /** The program run (default MAIN_JS). */
  entry?: string;
}

/** Starts the server on 127.0.0.1 (port 0 unless given) and resolves once it prints its `Serving` line. */
export function startServerProcess(options: StartOptions): Promise<ServerProcess> {
  const args = [
    ...(options.nodeArgs ?? []),
    options.entry ?? MAIN_JS,
    '--port',
    String(options.port ?? 0),
    '--host',
    '127.0.0.1',
    '--state',
    options.state,
  ];
  if (options.snapshot !== undefined) args.push('--snapshot', options.snapshot);
  const child: ChildProcess = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  const pid = child.pid!;
  const log: string[] = [];
  const logWaiters = new Set<() => void>();
  const keys: Partial<Record<BuiltInPlanName, string>> = {};
  let ended = false;
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; atMs: number }>((resolve) => {
    child.once('exit', (code, signal) => {
      ended = true;
      resolve({ code, signal, atMs: performance.now() });
      for (const wake of logWaiters) wake();
    });
  });
  const logged: Record<string, unknown>[] = [];
  const heard = (line: string): void => {
    log.push(line);
    for (const wake of logWaiters) wake();
  };
  lines(child.stderr!, (line) => {
    const key = /^\s+(free|pro|enterprise|internal)\s+(mdq_\S+)$/.exec(line);
    if (key !== null) keys[key[1] as BuiltInPlanName] = key[2];
    heard(line);
  });

  const waitForLog = (pattern: RegExp, timeoutMs = 10_000, from = 0): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): boolean => {
        for (let i = from; i < log.length; i++) {
          if (pattern.test(log[i])) {
            done();
            resolve(log[i]);
            return true;
          }
        }
        if (ended) {
          done();
          reject(new Error(`server ${pid} ended before logging ${pattern}; log:\n${log.join('\n')}`));
          return true;
        }
        return false;
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`no log line ${pattern} within ${timeoutMs} ms; log:\n${log.join('\n')}`));
      }, timeoutMs);
      const wake = (): void => void check();
      const done = (): void => {
        clearTimeout(timer);
        logWaiters.delete(wake);
      };
      logWaiters.add(wake);
      check();
    });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server did not start within ${options.timeoutMs ?? 20_000} ms; log:\n${log.join('\n')}`));
    }, options.timeoutMs ?? 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code} before serving; log:\n${log.join('\n')}`));
    });
    lines(child.stdout!, (line) => {
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(line) as Record<string, unknown>;
      } catch {
        entry = { unparsed: line }; // a test of the log format finds it here
      }
      logged.push(entry);
      heard(line);
      const serving = /^Serving (\S+) at http:\/\/[^:]+:(\d+)\//.exec(String(entry.msg));
      if (serving === null) return;
      clearTimeout(timer);
      resolve({
        pid,
        port: Number(serving[2]),
        version: serving[1],
        keys,
        log,
        logged,
        waitForLog,
        exited,
        signal: (name) => {
          if (!ended) process.kill(pid, name);
        },
        kill: async () => {
          if (!ended) child.kill('SIGKILL');
          await exited;
        },
        rss: () => vmRss(pid),
      });
    });
  });
}

function lines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk: string) => {
    rest += chunk;
    let cut: number;
    while ((cut = rest.indexOf('\n')) >= 0) {
      onLine(rest.slice(0, cut));
      rest = rest.slice(cut + 1);
    }
  });
}

/** VmRSS of `pid` in bytes, or null when the process is gone. */
export async function vmRss(pid: number): Promise<number | null> {
  try {
    const m = /^VmRSS:\s+(\d+) kB$/m.exec(await readFile(`/proc/${pid}/status`, 'utf8'));
    return m === null ? null : Number(m[1]) * 1024;
  } catch {
    return null;
  }
}

/** Points the symlink `link` at `target` atomically (a new link renamed over the old one). */
export async function repoint(link: string, target: string): Promise<void> {
  const tmp = `${link}.tmp-${process.pid}`;
  await symlink(target, tmp);
  await rename(tmp, link);
}
