// Child processes of a bench run: started, watched line by line, and always stopped by their own PID.

import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/** A process this harness started; `stop()` ends exactly it (never a name match). */
export interface Child {
  readonly name: string;
  readonly pid: number;
  readonly proc: ChildProcess;
  /** Resolves with the first stdout line matching `pattern`; rejects if the process exits first or time runs out. */
  waitForLine(pattern: RegExp, timeoutMs: number): Promise<RegExpMatchArray>;
  /** Resolves with the exit code (or signal name) once the process has exited. */
  readonly exited: Promise<number | string>;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once it has exited. Safe to call twice. */
  stop(graceMs?: number): Promise<void>;
}

/** Every child still running: `stopAll` walks it on error and on SIGINT so none outlives the run. */
const running = new Set<Child>();

export interface StartOptions {
  /** Receives each stderr line (progress of the child); default: dropped. */
  onStderr?: (line: string) => void;
  /** Receives each stdout line as well (after line waiters saw it). */
  onStdout?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

export function startChild(name: string, command: string, args: string[], options: StartOptions = {}): Child {
  const proc = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: options.env ?? process.env });
  if (proc.pid === undefined) {
    proc.on('error', () => {}); // the spawn failure (ENOENT…) is reported by the throw below
    throw new Error(`${name}: cannot start ${command} (not installed or not executable)`);
  }
  const lines: string[] = [];
  const waiters = new Set<(line: string) => void>();
  createInterface({ input: proc.stdout! }).on('line', (line) => {
    lines.push(line);
    for (const w of waiters) w(line);
    options.onStdout?.(line);
  });
  const stderrTail: string[] = [];
  createInterface({ input: proc.stderr! }).on('line', (line) => {
    // The last lines explain an early exit better than "exited with code 1".
    stderrTail.push(line);
    if (stderrTail.length > 20) stderrTail.shift();
    options.onStderr?.(line);
  });
  const exited = new Promise<number | string>((resolve) => {
    proc.on('exit', (code, signal) => {
      running.delete(child);
      resolve(code ?? signal ?? 'unknown');
    });
  });
  let stopping: Promise<void> | null = null;
  const child: Child = {
    name,
    pid: proc.pid,
    proc,
    exited,
    waitForLine(pattern, timeoutMs) {
      const seen = lines.map((l) => l.match(pattern)).find((m) => m !== null);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve, reject) => {
        const done = (): void => {
          waiters.delete(onLine);
          clearTimeout(timer);
        };
        const onLine = (line: string): void => {
          const m = line.match(pattern);
          if (m) done(), resolve(m);
        };
        const timer = setTimeout(
          () => (done(), reject(new Error(`${name}: no line matching ${pattern} within ${timeoutMs} ms`))),
          timeoutMs,
        );
        waiters.add(onLine);
        void exited.then((code) => {
          done();
          reject(
            new Error(
              `${name} exited (${code}) before printing ${pattern}; stderr tail:\n  ${stderrTail.join('\n  ')}`,
            ),
          );
        });
      });
    },
    stop(graceMs = 10_000) {
      stopping ??= (async () => {
        if (proc.exitCode !== null || proc.signalCode !== null) return;
        process.kill(proc.pid!, 'SIGTERM');
        let timer: NodeJS.Timeout | undefined;
        const killed = new Promise<void>((resolve) => {
          timer = setTimeout(() => {
            if (proc.exitCode === null && proc.signalCode === null) process.kill(proc.pid!, 'SIGKILL');
            resolve();
          }, graceMs);
        });
        await Promise.race([exited, killed]);
        clearTimeout(timer);
        await exited;
      })();
      return stopping;
    },
  };
  running.add(child);
  return child;
}

/** Stops every child this process started and that still runs. */
export async function stopAll(): Promise<void> {
  await Promise.all([...running].map((c) => c.stop().catch(() => {})));
}

/** Runs a command to its end and returns its stdout (rejecting with stderr on a non-zero exit). */
export function runToEnd(
  command: string,
  args: string[],
  options: { onStderr?: (line: string) => void } = {},
): Promise<string> {
  const child = startChild(command, command, args, options);
  let out = '';
  child.proc.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
  return child.exited.then((code) => {
    if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
    return out;
  });
}
