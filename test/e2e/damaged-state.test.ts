// A damaged state folder at start: parts cut short, zeroed or overwritten, edition.json and current.json
// unreadable or edited. Never a signal death, never wrong data served on: a damaged part or edition is
// stored again from the snapshot folder, or, with none, the server exits 2 with one line naming the file.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cp, open as openFile, readdir, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { open } from 'lmdb';
import { httpRequest } from '../helpers/api-server.js';
import { fixtureCopy } from '../helpers/fixture-copy.js';
import { assertOneLineExit2, cleanEnv, run } from '../helpers/program-run.js';
import { MAIN_JS, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const LOAD_CLI = fileURLToPath(new URL('../../loaders/cli/load.js', import.meta.url));
/** Answers compared with the undamaged state's: every market's data passes through them. */
const PATHS = [
  '/api/v1/markets',
  '/api/v1/ashare/klines/sh600001?limit=50',
  '/api/v1/hkstock/klines/hk00700?limit=50',
  '/api/v1/usstock/klines/usAAPL?limit=50',
  '/api/v1/ashare/screen?limit=50',
];

let dir: Awaited<ReturnType<typeof tempDir>>;
/** The snapshot folder, and a state folder that stored it. */
let A: string;
let seed: string;
/** A state folder whose snapshot folder is gone: nothing to store it again from. */
let orphan: string;
let version: string;
let reference: string[];
const running: ServerProcess[] = [];
let n = 0;

before(async () => {
  dir = await tempDir('mdq-damaged-');
  A = await fixtureCopy(join(dir.path, 'A'));
  seed = join(dir.path, 'seed');
  load(A, seed);
  const gone = await fixtureCopy(join(dir.path, 'gone'));
  orphan = join(dir.path, 'orphan');
  load(gone, orphan);
  await rm(gone, { recursive: true });
  const server = await serve(await copyOf(seed), A);
  version = server.version;
  reference = await answers(server);
});

after(async () => {
  for (const s of running) await s.kill();
  await dir?.cleanup();
});

function load(folder: string, state: string): void {
  const r = spawnSync(process.execPath, [LOAD_CLI, folder, '--state', state], { encoding: 'utf8', env: cleanEnv() });
  assert.equal(r.status, 0, r.stderr);
}

async function copyOf(state: string): Promise<string> {
  const to = join(dir.path, `state-${++n}`);
  await cp(state, to, { recursive: true });
  return to;
}

/** The internal key printed by a state folder's first start (a restart prints none). */
const internalKeys = new Map<string, string>();

async function serve(state: string, snapshot?: string): Promise<ServerProcess> {
  const server = await startServerProcess({ state, ...(snapshot === undefined ? {} : { snapshot }) });
  running.push(server);
  if (server.keys.internal !== undefined) internalKeys.set(state, server.keys.internal);
  (server as ServerProcess & { state?: string }).state = state;
  return server;
}

async function answers(server: ServerProcess): Promise<string[]> {
  const key = internalKeys.get((server as ServerProcess & { state?: string }).state!)!;
  const out: string[] = [];
  for (const path of PATHS) {
    const r = await httpRequest(server.port, path, { headers: { 'x-api-key': key } });
    assert.equal(r.status, 200, `${path}: ${r.text}`);
    assert.equal(r.headers['x-data-version'], version);
    out.push(r.text);
  }
  return out;
}

/** The folder of `market`'s part in `state`. */
async function partOf(state: string, market: string): Promise<string> {
  const parts = join(state, 'snapshots', 'parts');
  const name = (await readdir(parts)).find((p) => p.startsWith(`${market}-`) && !p.includes('.'));
  assert.ok(name !== undefined, `a ${market} part in ${parts}`);
  return join(parts, name);
}

/** Overwrites `length` bytes of `file` at `at` with a pattern. */
async function overwrite(file: string, at: number, length: number): Promise<void> {
  const f = await openFile(file, 'r+');
  try {
    await f.write(Buffer.alloc(length, 0xa5), 0, length, at);
  } finally {
    await f.close();
  }
}

/** Where the ashare pack lies in its file (its first 64 bytes found in the file): [offset, length]. */
async function packSpan(file: string): Promise<[number, number]> {
  const env = open({ path: file, readOnly: true });
  let head: Buffer;
  let length: number;
  try {
    const value = env.openDB({ name: 'market', encoding: 'binary' }).getBinaryFast('pack')!;
    length = value.length;
    head = Buffer.from(value.subarray(0, 64));
  } finally {
    await env.close();
  }
  const bytes = await readFile(file);
  const at = bytes.indexOf(head);
  assert.ok(at > 0 && bytes.indexOf(head, at + 1) < 0, 'the pack is found once');
  return [at, length];
}

/** Each damage to the ashare part's data.mdb, and whether a start can tell it before mapping (else: the background check). */
const PART_DAMAGE: { name: string; structural: boolean; apply: (file: string) => Promise<void> }[] = [
  {
    name: 'cut to half',
    structural: true,
    apply: async (f) => truncate(f, Math.floor((await readFile(f)).length / 2)),
  },
  { name: 'cut to 8 KiB', structural: true, apply: (f) => truncate(f, 8192) },
  { name: 'cut to 0 bytes', structural: true, apply: (f) => truncate(f, 0) },
  { name: 'meta pages zeroed', structural: true, apply: (f) => writeZeroes(f, 0, 8192) },
  {
    name: '4 KiB overwritten in the middle of the pack',
    structural: false,
    apply: async (f) => {
      const [at, length] = await packSpan(f);
      await overwrite(f, at + Math.floor(length / 2) - 2048, 4096);
    },
  },
];

async function writeZeroes(file: string, at: number, length: number): Promise<void> {
  const f = await openFile(file, 'r+');
  try {
    await f.write(Buffer.alloc(length), 0, length, at);
  } finally {
    await f.close();
  }
}

describe('a damaged part', () => {
  for (const damage of PART_DAMAGE) {
    test(`${damage.name}, the snapshot folder given: stored again, and the answers are the undamaged ones`, async () => {
      const state = await copyOf(seed);
      const part = await partOf(state, 'ashare');
      await damage.apply(join(part, 'data.mdb'));
      let server = await serve(state, A);
      if (damage.structural) {
        assert.ok(
          server.log.some((l) => l.includes(`${part}/data.mdb`) && l.includes('set aside as damaged')),
          `the log names the part:\n${server.log.join('\n')}`,
        );
      } else {
        // Served until the background check reads it: then set aside, and the server stops for a restart.
        await server.waitForLog(/the market's columns have crc32 .*damaged; set aside, and this server stops/, 20_000);
        const ended = await server.exited;
        assert.deepEqual([ended.code, ended.signal], [1, null], 'exit 1: a restart stores it again');
        server = await serve(state, A);
      }
      assert.deepEqual(await answers(server), reference);
      assert.ok(
        (await readdir(join(state, 'snapshots', 'parts'))).every((p) => !p.includes('.damaged-')),
        'the damaged copy is deleted once the edition is served again',
      );
    });

    test(`${damage.name}, no snapshot folder to store it from: exit 2 naming the file, never a signal`, async () => {
      const state = await copyOf(orphan);
      const part = await partOf(state, 'ashare');
      await damage.apply(join(part, 'data.mdb'));
      const r = run(MAIN_JS, ['--state', state, '--port', '0']);
      assert.equal(r.code, 2, `exit 2 (stdout: ${r.stdout}\nstderr: ${r.stderr})`);
      if (damage.structural) {
        const line = assertOneLineExit2({ ...r, stdout: '' }, damage.name);
        assert.ok(line.startsWith(`mdq: ${part}/data.mdb: `), line);
        assert.match(line, /no snapshot folder to store it again from/);
      } else {
        assert.match(
          r.stdout,
          new RegExp(
            `"level":"fatal".*${part}/data.mdb: the market's columns have crc32 .*no snapshot folder to store it again from`,
          ),
        );
      }
    });
  }
});

describe('current.json', () => {
  for (const [name, text] of [
    ['empty', ''],
    ['not JSON', 'not json {'],
    ['an array', '[1,2]'],
    ['naming ../x', JSON.stringify({ version: '../x', source: '/', fingerprint: '' })],
    ['naming a path', JSON.stringify({ version: 'a/b', source: '/', fingerprint: '' })],
  ] as const) {
    test(`${name}: exit 2 with one line naming it, with or without a snapshot folder`, async () => {
      const state = await copyOf(seed);
      const pointer = join(state, 'snapshots', 'current.json');
      await writeFile(pointer, text);
      for (const args of [[], ['--snapshot', A]]) {
        const r = run(MAIN_JS, ['--state', state, '--port', '0', ...args]);
        const line = assertOneLineExit2({ ...r, stdout: '' }, `${name} ${args.join(' ')}`);
        assert.ok(line.startsWith(`mdq: ${pointer}: `), line);
      }
    });
  }

  test('made unreadable while serving: a SIGHUP fails naming it, and the server serves on', async () => {
    const state = await copyOf(seed);
    const server = await serve(state);
    const pointer = join(state, 'snapshots', 'current.json');
    await writeFile(pointer, '[1,2]');
    const from = server.log.length;
    server.signal('SIGHUP');
    const line = await server.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 20_000, from);
    assert.ok(line.includes(`reload: failed: ${pointer}: not a JSON object`), line);
    assert.deepEqual(await answers(server), reference);
  });

  for (const [name, text] of [
    ['missing', null],
    ['null', 'null'],
  ] as const) {
    test(`${name}, no snapshot folder: the newest stored edition is served, not the demo`, async () => {
      const state = await copyOf(seed);
      const pointer = join(state, 'snapshots', 'current.json');
      if (text === null) await rm(pointer);
      else await writeFile(pointer, text);
      const server = await serve(state);
      assert.equal(server.version, version);
      assert.ok(!server.log.some((l) => l.includes('demo')), 'no demo');
      assert.deepEqual(await answers(server), reference);
      assert.equal(JSON.parse(await readFile(pointer, 'utf8')).version, version, 'the pointer names it again');
    });
  }
});

describe('edition.json', () => {
  const edits: [string, (text: string) => string][] = [
    ['empty', () => ''],
    ['not JSON', (t) => t.slice(0, t.length / 2)],
    ['an array', () => '[1,2]'],
    // The version it names is what every answer's X-Data-Version says.
    ['edited (its version changed)', (t) => t.replace(`"version":"${version}"`, `"version":"${version}0"`)],
  ];
  for (const [name, edit] of edits) {
    test(`${name}, the snapshot folder given: stored again, the undamaged answers`, async () => {
      const state = await copyOf(seed);
      const file = join(state, 'snapshots', version, 'edition.json');
      await writeFile(file, edit(await readFile(file, 'utf8')));
      const server = await serve(state, A);
      assert.deepEqual(await answers(server), reference);
    });

    test(`${name}, no snapshot folder: exit 2 with one line naming it`, async () => {
      const state = await copyOf(orphan);
      const file = join(state, 'snapshots', version, 'edition.json');
      await writeFile(file, edit(await readFile(file, 'utf8')));
      // The start's first log lines come before the edition is read: the one line is stderr's.
      const line = assertOneLineExit2({ ...run(MAIN_JS, ['--state', state, '--port', '0']), stdout: '' }, name);
      assert.ok(line.startsWith(`mdq: ${file}: `), line);
      assert.match(line, /no snapshot folder to store it again from/);
    });
  }
});
