// A full disk under the full demo's state folder (a tmpfs just larger than it; root), THREADS=2 and a
// steady stream of keyed K-line requests: the disk filled while serving, a reload while it is full, a
// reload of a changed ashare with 64 MB left (its ~430 MB part cannot be written), then room again
// and a reload. Prints what a user and an operator see at each step; the server must never end.
//
//   node dist/bench/ops/disk-full.js [--work DIR]
//
// --work is editions.ts's folder (default /tmp/mdq-bench-editions): the full demo and a state
// folder holding it (`node dist/bench/ops/editions.js --parts restart` makes them).

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import http from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { repoint } from '../../test/helpers/server-process.js';

const DIST = fileURLToPath(new URL('../../', import.meta.url));
const { values } = parseArgs({ options: { work: { type: 'string', default: '/tmp/mdq-bench-editions' } } });
const WORK = values.work!;
const DEMO = join(WORK, 'demo-1-10y');
const SEED = join(WORK, 'restart-state');
const HERE = join(WORK, 'disk-full');
const DISK = join(HERE, 'disk');
const STATE = join(DISK, 'state');
const LINK = join(HERE, 'snapshot');

/** A copy of the demo (hard links) with one value of `file`'s first row changed (a file of its own). */
function changed(name: string, file: string): string {
  const to = join(HERE, name);
  rmSync(to, { recursive: true, force: true });
  execFileSync('cp', ['-al', DEMO, to]);
  const path = join(to, file);
  const text = readFileSync(path, 'utf8');
  rmSync(path);
  const start = text.indexOf('\n') + 1;
  const end = text.indexOf('\n', start);
  const cells = text.slice(start, end).split(',');
  cells[6] = String(Number(cells[6]) + 1);
  writeFileSync(path, text.slice(0, start) + cells.join(',') + text.slice(end));
  return to;
}

/** Writes zeros into `path` until the file system refuses (ENOSPC); the bytes written. */
function fill(path: string): number {
  const fd = openSync(path, 'a');
  let written = 0;
  try {
    for (const size of [1 << 20, 4096, 512]) {
      const block = Buffer.alloc(size, 1);
      for (;;) {
        try {
          written += writeSync(fd, block);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOSPC') break;
          throw error;
        }
      }
    }
  } finally {
    closeSync(fd);
  }
  return written;
}

const df = (): string => execFileSync('df', ['-m', DISK], { encoding: 'utf8' }).split('\n')[1].replace(/\s+/g, ' ');
const leftovers = (): string[] =>
  [...readdirSync(join(STATE, 'snapshots')), ...readdirSync(join(STATE, 'snapshots/parts'))].filter(
    (n) => n.includes('.tmp-') || n.startsWith('.store-'),
  );

async function main(): Promise<void> {
  mkdirSync(DISK, { recursive: true });
  const seedMb = Number(execFileSync('du', ['-sm', SEED], { encoding: 'utf8' }).split('\t')[0]);
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${seedMb + 80}m`, 'tmpfs', DISK]);
  try {
    execFileSync('cp', ['-a', SEED, STATE]);
    const etfs = changed('etfs-changed', 'etfs/klines.csv');
    const ashare = changed('ashare-changed', 'ashare/klines.csv');
    await repoint(LINK, DEMO);
    const key = execFileSync(
      process.execPath,
      [join(DIST, 'loaders/cli/keys.js'), 'create', '--plan', 'internal', '--org', 'bench', '--state', STATE],
      { encoding: 'utf8' },
    )
      .trim()
      .split('\n')
      .at(-1)!;
    await run(key, etfs, ashare);
  } finally {
    for (let i = 0; i < 25 && spawnSync('umount', [DISK]).status !== 0; i++)
      await new Promise((r) => setTimeout(r, 200));
  }
}

async function run(key: string, etfs: string, ashare: string): Promise<void> {
  const server = spawn(process.execPath, [join(DIST, 'main.js'), '--state', STATE, '--snapshot', LINK, '--port', '0'], {
    env: { ...process.env, THREADS: '2' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  let rest = '';
  server.stdout.setEncoding('utf8');
  server.stdout.on('data', (chunk: string) => {
    rest += chunk;
    for (let i = rest.indexOf('\n'); i >= 0; i = rest.indexOf('\n'))
      log.push(rest.slice(0, i)), (rest = rest.slice(i + 1));
  });
  let stderrLines = 0;
  let stderrTail = '';
  server.stderr.on('data', (chunk: Buffer) => {
    stderrLines += chunk.toString().split('\n').length - 1;
    stderrTail = (stderrTail + chunk.toString()).slice(-2000);
  });
  let ended: string | null = null;
  server.on('exit', (code, signal) => void (ended = `${code ?? signal}`));
  const msg = (line: string): string => (JSON.parse(line) as { msg: string }).msg;
  const wait = async (pattern: RegExp, from = 0): Promise<string> => {
    for (const t = Date.now(); Date.now() - t < 300_000; await new Promise((r) => setTimeout(r, 20))) {
      const line = log.slice(from).find((l) => pattern.test(l));
      if (line !== undefined) return line;
      if (ended !== null) throw new Error(`the server ended (${ended}):\n${log.slice(-5).join('\n')}\n${stderrTail}`);
    }
    throw new Error(`no log line ${pattern}`);
  };
  const port = Number(/"port":(\d+)/.exec(await wait(/Serving \S+ at http/))![1]);
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<{ status: number; version: string; body: string }>((resolve) => {
      http
        .get({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
          let body = '';
          res.on('data', (c) => (body += c));
          res.on('end', () =>
            resolve({ status: res.statusCode ?? 0, version: String(res.headers['x-data-version']), body }),
          );
        })
        .on('error', () => resolve({ status: 0, version: '', body: '' }));
    });
  const metric = async (name: string): Promise<string> =>
    (await get('/metrics')).body
      .split('\n')
      .filter((l) => l.startsWith(name))
      .join('; ');
  const reload = async (folder: string): Promise<string> => {
    const from = log.length;
    await repoint(LINK, folder);
    const t = performance.now();
    server.kill('SIGHUP');
    const line = msg(await wait(/reload: (now serving|unchanged|snapshot rejected|failed)/, from));
    return `${((performance.now() - t) / 1000).toFixed(1)} s: ${line}`;
  };
  // The request stream: one keyed K-line request every 20 ms, each answer's status, version and rows counted.
  const symbols = readFileSync(join(DEMO, 'ashare/symbols.csv'), 'utf8')
    .split('\n')
    .slice(1)
    .filter(Boolean)
    .map((l) => l.split(',')[0]);
  const statuses: Record<string, number> = {};
  const versions: Record<string, number> = {};
  let rows = 0;
  let requests = 0;
  let streaming = true;
  const stream = (async () => {
    while (streaming) {
      const r = await get(`/api/v1/ashare/klines/${symbols[requests++ % symbols.length]}?limit=5`, {
        'x-api-key': key,
      });
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      versions[r.version] = (versions[r.version] ?? 0) + 1;
      if (r.status === 200) rows += (JSON.parse(r.body) as { count: number }).count;
      await new Promise((q) => setTimeout(q, 20));
    }
  })();
  await new Promise((r) => setTimeout(r, 2000));

  const filled = Date.now();
  console.log(
    `1. the disk filled while serving (${Math.round(fill(join(DISK, 'filler')) / 1e6)} MB written; df: ${df()})`,
  );
  console.log(`   after ${((Date.now() - filled) / 1000).toFixed(1)} s: ${msg(await wait(/usage: not durable/))}`);
  console.log(`   /readyz ${(await get('/readyz')).body}; ${await metric('mdq_usage_durable ')}`);
  console.log(`2. a reload (etfs changed) while it is full, ${await reload(etfs)}`);
  console.log(`   ${await metric('mdq_reloads_total{result="failed"}')}; left behind: [${leftovers().join(', ')}]`);
  execFileSync('truncate', ['-s', `-${64 << 20}`, join(DISK, 'filler')]);
  console.log(`3. 64 MB freed (df: ${df()}); a reload of a changed ashare, ${await reload(ashare)}`);
  console.log(`   ${await metric('mdq_reloads_total{result="failed"}')}; left behind: [${leftovers().join(', ')}]`);
  rmSync(join(DISK, 'filler'));
  await wait(/usage: the state folder takes writes again/, 0);
  console.log(
    `4. the disk freed (df: ${df()}); /readyz ${(await get('/readyz')).body}; ${await metric('mdq_usage_durable ')}`,
  );
  console.log(`   a reload (etfs changed), ${await reload(etfs)}`);
  await new Promise((r) => setTimeout(r, 1500));
  streaming = false;
  await stream;
  const quota = JSON.parse((await get('/api/v1/quota', { 'x-api-key': key })).body) as Record<string, number>;
  console.log(
    `5. ${requests} requests: statuses ${JSON.stringify(statuses)}, versions ${JSON.stringify(versions)}; rows answered ${rows}, /quota used ${quota.used}, requests_today ${quota.requests_today}; the server ended: ${ended ?? 'no'}; stderr lines ${stderrLines} (LMDB's "Write error")`,
  );
  server.kill('SIGTERM');
  await new Promise((r) => server.once('exit', r));
  console.log(`   SIGTERM: exit ${ended}`);
}

await main();
