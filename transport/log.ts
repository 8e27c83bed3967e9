// The service's log: JSON lines on stdout (level, time, the line's fields, msg; the request id
// among the fields where a request caused the line), written asynchronously so that no
// request waits on a write. Secrets (keys, passwords) are never passed to it.

import pino, { type DestinationStream, type Logger } from 'pino';

export type { Logger };
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Lines held while stdout refuses them (a log file on a full disk); beyond it new lines are dropped. */
const HELD_LOG_BYTES = 16 * 1024 * 1024;

/**
 * Stdout, written asynchronously (pino flushes it at exit; `flushSync` before an explicit exit).
 * A write stdout refuses (a log file on a full disk: ENOSPC) never ends or stalls the server:
 * sonic-boom would throw it as an unhandled 'error' event, and its `flushSync` retries such a
 * write forever (at exit too, through pino's exit hook). So the failure is noted, up to
 * HELD_LOG_BYTES of lines wait and are retried with the next line, and `flushSync` gives up while
 * the last write failed.
 */
export function stdoutDestination(): ReturnType<typeof pino.destination> {
  const destination = pino.destination({ dest: 1, sync: false, maxLength: HELD_LOG_BYTES });
  let refused = false;
  destination.on('error', () => void (refused = true));
  destination.on('write', () => void (refused = false));
  const flushSync = destination.flushSync.bind(destination);
  destination.flushSync = () => {
    if (!refused) flushSync();
  };
  return destination;
}

/** A logger writing to `destination`. */
export function createLogger(level: LogLevel, destination: DestinationStream): Logger {
  return pino(
    {
      level,
      base: null, // no pid and hostname on every line
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
    },
    destination,
  );
}

/**
 * The access log (ACCESS_LOG=1): one line per answer in the logger's format, to the same
 * destination. Lines are joined and handed over once per event-loop turn: through pino one
 * line costs ~5 µs here, most of it the destination re-measuring its pending text on every
 * write (`npm run bench -- --only observe`); batched, a fraction of that.
 */
/** One access line: when, which request, its route and status, the key's plan and id, rows, bytes, µs. */
export interface AccessLine {
  nowMs: number;
  requestId: string;
  route: string;
  status: number;
  plan: string;
  keyId: string | null;
  rows: number;
  bytes: number;
  us: number;
}

export class AccessLog {
  private pending = '';
  private lastMs = -1;
  private lastTime = '';

  private readonly thread: string;

  /** `thread`: the serving thread's number, written on each line when several serve (THREADS ≥ 2). */
  constructor(
    private readonly destination: { write(text: string): unknown },
    thread: number | null = null,
  ) {
    this.thread = thread === null ? '' : `"thread":${thread},`;
  }

  /** One answer. Its `requestId` may be the client's (visible ASCII): it is JSON-escaped. */
  write(line: AccessLine): void {
    const { nowMs, keyId } = line;
    if (nowMs !== this.lastMs) (this.lastMs = nowMs), (this.lastTime = new Date(nowMs).toISOString());
    if (this.pending === '') setImmediate(this.flush);
    this.pending += `{"level":"info","time":"${this.lastTime}","request_id":${JSON.stringify(line.requestId)},"route":"${line.route}","status":${line.status},"plan":"${line.plan}","key_id":${keyId === null ? 'null' : `"${keyId}"`},"rows":${line.rows},"bytes":${line.bytes},"us":${line.us},${this.thread}"msg":"access"}\n`;
  }

  /** Hands the pending lines to the destination (also called before exit). */
  readonly flush = (): void => {
    if (this.pending === '') return;
    const text = this.pending;
    this.pending = '';
    this.destination.write(text);
  };
}
