// Runs Debian's nginx with deploy/nginx.conf in a temporary prefix, in front of given API instances.

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, writeFile, readFile } from 'node:fs/promises';
import { connect, createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './snapshot-folder.js';

/** The binary: Debian installs it in /usr/sbin, which a user's PATH may lack. */
export const NGINX = existsSync('/usr/sbin/nginx') ? '/usr/sbin/nginx' : 'nginx';

/** The shipped configuration, deploy/nginx.conf (from dist/test/helpers/). */
export const NGINX_CONF = fileURLToPath(new URL('../../../deploy/nginx.conf', import.meta.url));

/**
 * deploy/nginx.conf with its `# @listen` line listening on `listen` and the `server` lines
 * between `# @instances begin` and `# @instances end` replaced by one per address in
 * `instances` (each keeping the parameters of the first shipped line).
 */
export function renderNginxConf(template: string, options: { listen: string; instances: string[] }): string {
  const lines = template.split('\n');
  const listenAt = lines.findIndex((l) => l.includes('# @listen'));
  const begin = lines.findIndex((l) => l.includes('# @instances begin'));
  const end = lines.findIndex((l) => l.includes('# @instances end'));
  if (listenAt < 0 || begin < 0 || end < begin)
    throw new Error('deploy/nginx.conf lacks its @listen or @instances markers');
  if (!/listen \S+;/.test(lines[listenAt]))
    throw new Error(`the @listen line holds no listen directive: ${lines[listenAt]}`);
  lines[listenAt] = lines[listenAt].replace(/listen \S+;/, `listen ${options.listen};`);
  const shipped = lines.slice(begin + 1, end).find((l) => /^\s*server \S+/.test(l));
  if (shipped === undefined) throw new Error('no server line between the @instances markers');
  const servers = options.instances.map((address) => shipped.replace(/server \S+/, `server ${address}`));
  lines.splice(begin + 1, end - begin - 1, ...servers);
  return lines.join('\n');
}

/** A free TCP port on 127.0.0.1 (closed again before it is returned: a small race). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** One nginx master started by `startNginx`; `stop` ends exactly this PID. */
export interface NginxProcess {
  readonly pid: number;
  readonly port: number;
  readonly prefix: string;
  /** Everything nginx wrote to stderr (its error log). */
  stderr(): string;
  /** The access log so far. */
  accessLog(): Promise<string>;
  /** SIGTERM to the master (SIGKILL after 5 s), then removes the prefix. */
  stop(): Promise<void>;
}

/** The command line deploy/nginx.conf documents, for a prefix and a configuration file. */
export function nginxArgs(prefix: string, conf: string): string[] {
  return [
    '-p',
    prefix,
    '-c',
    conf,
    '-e',
    'stderr',
    '-g',
    `daemon off; pid ${join(prefix, 'nginx.pid')}; error_log stderr;`,
  ];
}

/** A temporary prefix holding the folders the configuration names (logs/, temp/), traversable by nginx's workers. */
export async function nginxPrefix(): Promise<{ path: string; cleanup: () => Promise<void> }> {
  const dir = await tempDir('mdq-nginx-');
  // As root, nginx's workers run as nobody: they must reach temp/ under the prefix.
  await chmod(dir.path, 0o755);
  await mkdir(join(dir.path, 'logs'));
  await mkdir(join(dir.path, 'temp'));
  return dir;
}

/** nginx on a free port in front of `instances` (ports on 127.0.0.1); resolves once it accepts connections. */
export async function startNginx(instances: number[]): Promise<NginxProcess> {
  const dir = await nginxPrefix();
  const port = await freePort();
  const conf = join(dir.path, 'nginx.conf');
  await writeFile(
    conf,
    renderNginxConf(await readFile(NGINX_CONF, 'utf8'), {
      listen: `127.0.0.1:${port}`,
      instances: instances.map((p) => `127.0.0.1:${p}`),
    }),
  );
  const child: ChildProcess = spawn(NGINX, nginxArgs(dir.path, conf), { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.setEncoding('utf8');
  child.stderr!.on('data', (chunk: string) => (stderr += chunk));
  let ended = false;
  const exited = new Promise<void>((resolve) => child.once('exit', () => ((ended = true), resolve())));
  const stop = async (): Promise<void> => {
    if (!ended) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    }
    await dir.cleanup();
  };
  const deadline = Date.now() + 5_000;
  while (!(await accepts(port))) {
    if (ended || Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not start on port ${port}:\n${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return {
    pid: child.pid!,
    port,
    prefix: dir.path,
    stderr: () => stderr,
    accessLog: () => readFile(join(dir.path, 'logs', 'access.log'), 'utf8'),
    stop,
  };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}
