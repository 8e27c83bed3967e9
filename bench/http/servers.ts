// Starts the two servers of a comparison as their own processes: ours (dist/main.js) and the raw uWS ceiling.

import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Child, runToEnd, startChild } from './children.js';
import { pinProcess } from './pinning.js';

/** Compiled entry points, found from this file's place in dist/bench/http/. */
const DIST = fileURLToPath(new URL('../../', import.meta.url));
export const REPO = fileURLToPath(new URL('../../../', import.meta.url));
const MAIN = join(DIST, 'main.js');
const KEYS_CLI = join(DIST, 'loaders/cli/keys.js');
const GEN_CLI = join(DIST, 'loaders/demo/cli.js');
const RAW = join(DIST, 'bench/http/raw-server.js');

/** The default snapshot: the full demo, generated on first use (git-ignored). */
export const DEMO_SNAPSHOT = join(REPO, 'snapshots/demo');

export interface RunningServer {
  child: Child;
  port: number;
}

type Log = (line: string) => void;

/** Generates the full demo snapshot when the default demo folder holds none (≈10 s, ≈1 GB); any other folder must exist. */
export async function ensureSnapshot(dir: string, log: Log): Promise<void> {
  if (existsSync(join(dir, 'manifest.json'))) return;
  if (dir !== DEMO_SNAPSHOT)
    throw new Error(
      `no snapshot in ${dir} (manifest.json missing); only the default ${DEMO_SNAPSHOT} is generated on demand`,
    );
  log(`no snapshot in ${dir}: generating the full demo snapshot`);
  await runToEnd(process.execPath, [GEN_CLI, '--out', dir], { onStderr: (l) => log(`  gen: ${l.trim()}`) });
}

/**
 * The internal-plan key of `stateDir` (never rate- or quota-limited). The server prints
 * keys only on its very first start, so the bench issues its own key once with the keys
 * CLI (before the server opens the store: one LMDB opener at a time) and keeps it in a
 * 0600 file beside the state, so later runs reuse the state dir and its loaded snapshot.
 * `root`: another checkout whose own keys command makes it (its state folder may be laid out
 * by that build).
 */
export async function internalKey(stateDir: string, log: Log, root: string | null = null): Promise<string> {
  const file = join(stateDir, 'bench-internal.key');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  log(`issuing an internal key for the bench in ${stateDir}`);
  const out = await runToEnd(process.execPath, [
    root === null ? KEYS_CLI : join(root, 'dist/loaders/cli/keys.js'),
    'create',
    '--plan',
    'internal',
    '--org',
    'http bench',
    '--state',
    stateDir,
  ]);
  const key = out.trim().split('\n').pop()!.trim();
  if (!/^mdq_\S+$/.test(key)) throw new Error(`keys create printed no key:\n${out}`);
  writeFileSync(file, `${key}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return key;
}

/**
 * Our server on 127.0.0.1 and `port` (default 0: a free one), loading `snapshotDir` into
 * `stateDir` (a no-op when already stored; null: the stored edition, as `--state` alone
 * serves it), pinned to `core` once it serves (every thread: pool workers too).
 * `nodeArgs` go before the script (e.g. `--cpu-prof`); `env` is added to this process's;
 * `main` is another build's entry point (default: this one's).
 */
export async function startOurServer(options: {
  stateDir: string;
  snapshotDir: string | null;
  port?: number;
  core: number | null;
  nodeArgs?: string[];
  env?: Record<string, string>;
  log: Log;
  main?: string;
}): Promise<RunningServer> {
  const { stateDir, snapshotDir, core, log } = options;
  const snapshot = snapshotDir === null ? [] : ['--snapshot', snapshotDir];
  const args = [
    ...(options.nodeArgs ?? []),
    options.main ?? MAIN,
    '--port',
    String(options.port ?? 0),
    '--host',
    '127.0.0.1',
    '--state',
    stateDir,
    ...snapshot,
  ];
  // One serving thread unless asked (THREADS defaults to the cores): the comparisons pin the server to one core, like raw uWS.
  const env = { ...process.env, THREADS: '1', ...options.env };
  const child = startChild('server', process.execPath, args, { onStderr: (l) => log(`  server: ${l.trim()}`), env });
  try {
    // A first load of the full demo takes ≈20 s (more on a busy machine); later starts ≈1 s.
    // The log is JSON lines on stdout: the message is the "msg" field.
    const m = await child.waitForLine(/"msg":"Serving \S+ at http:\/\/127\.0\.0\.1:(\d+)\/api\/v1/, 15 * 60_000);
    pinProcess(child.pid, core);
    return { child, port: Number(m[1]) };
  } catch (err) {
    await child.stop();
    throw err;
  }
}

/** The raw uWS server answering `bodyFile`'s bytes with the headers of `headersFile` (a JSON list of [name, value]), pinned to `core`. */
export async function startRawServer(options: {
  bodyFile: string;
  headersFile?: string;
  /** A varied case's answers (bench/http/comparison.ts variedAnswers): each path answered with its own bytes. */
  answersFile?: string;
  core: number | null;
  log: Log;
}): Promise<RunningServer> {
  const answer =
    options.answersFile !== undefined
      ? ['--answers-file', options.answersFile]
      : [
          '--body-file',
          options.bodyFile,
          ...(options.headersFile === undefined ? [] : ['--headers-file', options.headersFile]),
        ];
  const child = startChild('raw-server', process.execPath, [RAW, '--port', '0', '--host', '127.0.0.1', ...answer], {
    onStderr: (l) => options.log(`  raw: ${l.trim()}`),
  });
  try {
    const m = await child.waitForLine(/^raw-server listening on (\d+)/, 30_000);
    pinProcess(child.pid, options.core);
    return { child, port: Number(m[1]) };
  } catch (err) {
    await child.stop();
    throw err;
  }
}
