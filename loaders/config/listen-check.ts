// Whether HOST:PORT can be listened on: checked before the data load, and used to explain a failed listen.

import { createServer } from 'node:net';
import { SettingError } from './read-settings.js';

/** `127.0.0.1:8080`, `[::1]:8080`. */
export const address = (host: string, port: number): string =>
  host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;

const REASONS: Record<string, string> = {
  EADDRINUSE: 'the port is already in use',
  EADDRNOTAVAIL: "the address is not one of this machine's",
  EACCES: 'permission denied (ports below 1024 need privileges)',
  ENOTFOUND: 'unknown host name',
  EAI_AGAIN: 'the host name could not be resolved',
};

/**
 * Resolves when `host:port` can be bound now (a listening socket opened and closed at
 * once); throws {@link SettingError} naming the address and the reason otherwise. Port 0
 * is always free. The server listens later without SO_REUSEPORT, so a port taken in
 * between is still refused then.
 */
export async function checkListen(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const server = createServer();
  try {
    await new Promise<void>((ok, fail) => {
      server.once('error', fail);
      server.listen({ host, port, exclusive: true }, ok);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
    throw new SettingError(`cannot listen on ${address(host, port)}: ${REASONS[code] ?? code}`);
  }
  await new Promise((done) => server.close(done));
}

/** The SettingError for a listen that failed: the reason when it can still be seen, else the address alone. */
export async function listenFailure(host: string, port: number): Promise<SettingError> {
  try {
    await checkListen(host, port);
  } catch (error) {
    if (error instanceof SettingError) return error;
    throw error;
  }
  return new SettingError(`cannot listen on ${address(host, port)}`);
}
