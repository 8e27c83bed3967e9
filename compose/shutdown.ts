// A stop of the main thread: what it closes, as far as the start has opened it, in order: drain
// (every serving thread), the pool, the key mirror, usage, Redis, the stores; then exit.

import type { KernelPool } from '../engine/pool/pool.js';
import type { KeyMirror } from '../loaders/state/key-mirror.js';
import type { OperatorStore } from '../loaders/state/operator-store.js';
import type { StateStore } from '../loaders/state/state-store.js';
import type { StateSync } from '../loaders/state/state-sync.js';
import type { AccessLog } from '../transport/log.js';
import type { RunningServer, ServerState } from '../transport/server.js';
import type { ServingThreads } from '../transport/threads/serving-threads.js';

/** Longest a drain may take before the process exits anyway (the usage flush included). */
export const DRAIN_LIMIT_MS = 9000;

/** What a stop closes, as far as the start has opened it (each set once it is open). */
export interface OpenParts {
  server?: RunningServer;
  threads?: ServingThreads;
  /**
   * The other serving threads while they start: a stop in that moment (this thread already
   * serves) waits for them to listen, then drains them. A thread ended while its server is open
   * would abort the process (uv_loop_close with open handles), not exit.
   */
  threadsStarting?: Promise<ServingThreads>;
  kernels?: KernelPool;
  mirror?: KeyMirror;
  sync?: StateSync;
  store?: StateStore;
  operator?: OperatorStore;
  accessLog?: AccessLog;
  redis?: { disconnect(): void };
}

export interface ShutdownOptions {
  state: ServerState;
  /** DRAIN_GRACE_MS: how long open connections keep getting 503 before the wait for requests in flight. */
  drainGraceMs: number;
  log: (line: string) => void;
  error: (line: string) => void;
  /** Writes every buffered log line before the process exits. */
  flushLog: () => void;
}

export class Shutdown {
  readonly parts: OpenParts = {};
  private stopping = false;

  constructor(private readonly o: ShutdownOptions) {}

  /**
   * Drain: /healthz and new requests on open connections answer 503 shutting_down (with
   * Connection: close) at once, the listening socket closes, requests in flight finish,
   * usage is flushed, exit `exitCode`. Idle keep-alive clients do not hold the exit up. During
   * start, what has opened so far is closed and the process exits without serving.
   */
  async stop(signal: string, exitCode = 0): Promise<void> {
    const { parts, o } = this;
    if (this.stopping) {
      o.log(`${signal}: already ${parts.server === undefined ? 'stopping' : 'draining'}`);
      return;
    }
    this.stopping = true;
    const { server, kernels, mirror, sync, store, operator } = parts;
    o.state.draining = true;
    parts.threads?.refuseNow(); // every thread refuses new requests before the drain is announced
    o.log(server === undefined ? `${signal} during start: stopping before serving` : `${signal}: draining`);
    setTimeout(() => {
      o.error(`drain: not finished after ${DRAIN_LIMIT_MS} ms; exiting`);
      parts.accessLog?.flush();
      o.flushLog();
      process.exit(1);
    }, DRAIN_LIMIT_MS).unref();
    if (server !== undefined) {
      server.close();
      server.stream.goingAway(); // every WebSocket of this thread is sent 1001; the other threads' as they drain
      // Requests already sent on open connections are answered 503 (Connection: close) rather
      // than cut off: give them a moment to arrive before the process takes the sockets down.
      const threads = parts.threads ?? (await parts.threadsStarting?.catch(() => undefined));
      const othersDrained = threads?.drain();
      await new Promise((resolve) => setTimeout(resolve, o.drainGraceMs));
      await server.idle();
      await othersDrained;
    }
    await kernels?.close();
    await mirror?.tick(); // a key changed here just before the stop still reaches the other instances
    await mirror?.close();
    await sync?.close(); // the last usage counts reach the disk before exit
    parts.redis?.disconnect();
    await store?.close();
    await operator?.close();
    o.log(server === undefined ? 'stopped before serving; bye' : 'drained; bye');
    parts.accessLog?.flush();
    o.flushLog();
    process.exit(exitCode);
  }
}
