// The parent's end of the stream bench's load child (stream-load.ts): the child forked, its messages
// awaited by type, its errors kept for the failure that names them.

import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LOAD = fileURLToPath(new URL('./stream-load.js', import.meta.url));

/** The load child: resolves its next message of `type` (or rejects after `timeoutMs`). */
export class Load {
  private readonly waiters = new Map<string, ((m: Record<string, unknown>) => void)[]>();
  readonly errors: string[] = [];
  readonly child: ChildProcess;

  /** Forks the child with `args` (stream-load.ts's flags); its stderr goes to this process's. */
  constructor(args: string[]) {
    this.child = fork(LOAD, args, { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    this.child.on('message', (m: Record<string, unknown>) => {
      if (m.type === 'error') return void (this.errors.length < 5 && this.errors.push(String(m.message)));
      const ws = this.waiters.get(m.type as string) ?? [];
      ws.shift()?.(m);
    });
  }

  next(type: string, timeoutMs: number): Promise<Record<string, unknown>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`load child: no ${type} within ${timeoutMs} ms (${this.errors.join('; ')})`)),
        timeoutMs,
      );
      const list = this.waiters.get(type) ?? [];
      list.push((m) => (clearTimeout(timer), resolve(m)));
      this.waiters.set(type, list);
    });
  }

  send(m: object): void {
    this.child.send(m);
  }

  /** Tells the child to exit and resolves once it has. */
  async exit(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((r) => this.child.once('exit', r));
    this.send({ type: 'exit' });
    await exited;
  }
}
