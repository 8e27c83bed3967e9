// Runs Debian's redis-server on a free port in a temporary folder, for the shared-limits tests.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';
import { freePort } from './nginx.js';
import { tempDir } from './snapshot-folder.js';

/** The binary: Debian installs it in /usr/bin. */
export const REDIS_SERVER = existsSync('/usr/bin/redis-server') ? '/usr/bin/redis-server' : 'redis-server';

/** One redis-server; `stop` ends exactly its PID, `start` runs it again on the same port (empty: nothing is saved). */
export interface RedisProcess {
  readonly port: number;
  readonly url: string;
  pid(): number | null;
  /** SIGTERM (SIGKILL after 5 s); the folder stays for a `start`. */
  stop(): Promise<void>;
  /** Starts it again on the same port; resolves once it answers PING. */
  start(): Promise<void>;
  /** A client for the test's own reads (closed by `close`). */
  client(): Redis;
  /** Stops it and removes its folder. */
  close(): Promise<void>;
}

/** redis-server on a free 127.0.0.1 port, no persistence; resolves once it answers PING. */
export async function startRedis(): Promise<RedisProcess> {
  const dir = await tempDir('mdq-redis-');
  const port = await freePort();
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  let stderr = '';
  const clients: Redis[] = [];
  const run = async (): Promise<void> => {
    const c = spawn(
      REDIS_SERVER,
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir.path,
        '--save',
        '',
        '--appendonly',
        'no',
        '--logfile',
        '',
      ],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child = c;
    c.stderr!.setEncoding('utf8');
    c.stderr!.on('data', (chunk: string) => (stderr += chunk));
    exited = new Promise((resolve) => c.once('exit', () => ((child = null), resolve())));
    const probe = new Redis({
      port,
      host: '127.0.0.1',
      lazyConnect: true,
      retryStrategy: () => null,
      enableOfflineQueue: false,
    });
    probe.on('error', () => {});
    const deadline = Date.now() + 5_000;
    for (;;) {
      try {
        await probe.connect();
        await probe.ping();
        probe.disconnect();
        return;
      } catch {
        probe.disconnect();
        if (child === null || Date.now() > deadline)
          throw new Error(`redis-server did not start on port ${port}: ${stderr}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    }
  };
  const stop = async (): Promise<void> => {
    const c = child as ChildProcess | null;
    if (c === null) return;
    c.kill('SIGTERM');
    const timer = setTimeout(() => c.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(timer);
  };
  await run();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    pid: () => (child as ChildProcess | null)?.pid ?? null,
    stop,
    start: run,
    client: () => {
      const c = new Redis({ port, host: '127.0.0.1', maxRetriesPerRequest: 1 });
      c.on('error', () => {});
      clients.push(c);
      return c;
    },
    close: async () => {
      for (const c of clients) c.disconnect();
      await stop();
      await dir.cleanup();
    },
  };
}
