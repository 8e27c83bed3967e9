// Worker threads for a load's tasks, made as tasks arrive and ended only once every task given them
// has settled.

import { Piscina } from 'piscina';

export interface TaskPool<T, R> {
  run(task: T): Promise<R>;
  /** Waits for every task given (queued or running) to settle, then ends the threads. */
  close(): Promise<void>;
}

/**
 * A pool of `threads` workers running `filename`'s default export; `onMessage` hears what they
 * post. A load that fails (a rejected file) must not end its workers while some still run a task
 * or load their modules: a worker ended inside an LMDB commit, or while it registers a native addon,
 * aborts the whole process. So workers are made when tasks need them (none idle while loading) and
 * `close` lets every task given settle first.
 */
export function taskPool<T, R>(
  filename: string,
  threads: number,
  onMessage: (message: unknown) => void,
): TaskPool<T, R> {
  const pool = new Piscina<T, R>({ filename, minThreads: 0, maxThreads: threads, idleTimeout: 60_000 });
  pool.on('message', onMessage);
  const given = new Set<Promise<R>>();
  return {
    run: (task) => {
      const done = pool.run(task);
      given.add(done);
      const forget = (): void => void given.delete(done);
      done.then(forget, forget);
      return done;
    },
    close: async () => {
      await Promise.allSettled([...given]);
      await pool.destroy();
    },
  };
}
