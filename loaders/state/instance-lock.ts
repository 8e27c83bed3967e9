// One serving process per state folder: two would each count a key's usage and overwrite the
// other's counts, so a key would get its limits twice.
//
// The lock is a listening socket in Linux's abstract namespace, named after the folder's real
// path: binding it is atomic, and the kernel frees it when the process ends in any way (no
// stale lock file after a crash or kill -9). It holds only among processes of one network
// namespace (one host, or one container); abstract names have no permissions, so a local
// process could take the name first (the server then exits 2 naming no pid).

import { createHash } from 'node:crypto';
import { mkdirSync, realpathSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';

/** The state folder is held by another live process. */
export class StateFolderInUse extends Error {
  constructor(
    readonly folder: string,
    readonly holder: number | null,
  ) {
    super(
      `state folder ${folder} is in use by another server${holder === null ? '' : ` (pid ${holder})`}: give each instance its own STATE_DIR`,
    );
  }
}

/** The abstract socket name of `folder` (hashed: a name is at most 107 bytes). */
export function lockName(folder: string): string {
  return `\0mdq-state-${createHash('sha256').update(folder).digest('hex').slice(0, 32)}`;
}

/** The holder's pid, as it answers on the lock socket, or null when it does not within a second. */
function holderPid(name: string): Promise<number | null> {
  return new Promise((resolve) => {
    const socket = connect(name);
    let text = '';
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(/^\d+$/.test(text.trim()) ? Number(text.trim()) : null);
    };
    const timer = setTimeout(done, 1000);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('end', done);
    socket.on('error', done);
  });
}

/**
 * Takes the lock of state folder `dir` (made if missing) for this process's life, or throws
 * StateFolderInUse naming the holder's pid.
 */
export async function lockStateFolder(dir: string): Promise<void> {
  mkdirSync(dir, { recursive: true });
  const folder = realpathSync(dir);
  const name = lockName(folder);
  // A client that resets must not raise an uncaught error in the server holding the lock.
  const server: Server = createServer((socket) => socket.on('error', () => {}).end(`${process.pid}\n`));
  const bound = await new Promise<boolean>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      error.code === 'EADDRINUSE' ? resolve(false) : reject(error),
    );
    server.listen(name, () => resolve(true));
  });
  if (!bound) throw new StateFolderInUse(folder, await holderPid(name));
  server.unref(); // the lock never keeps the process alive
}
