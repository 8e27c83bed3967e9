// What the state folder keeps: a store killed mid-write leaves nothing after the next start, and many
// reloads leave KEEP_EDITIONS editions and only the parts they name.

import assert from 'node:assert/strict';
import { readdir, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fixtureCopy, LAST_ROW } from '../helpers/fixture-copy.js';
import { repoint, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { KLINE_HEADER, tempDir, writeSnapshotFolder } from '../helpers/snapshot-folder.js';

let dir: Awaited<ReturnType<typeof tempDir>>;
const running: ServerProcess[] = [];

before(async () => {
  dir = await tempDir('mdq-leftovers-');
});

after(async () => {
  for (const s of running) await s.kill();
  await dir?.cleanup();
});

async function serve(state: string, snapshot: string, env: NodeJS.ProcessEnv = {}): Promise<ServerProcess> {
  const server = await startServerProcess({ state, snapshot, env, timeoutMs: 60_000 });
  running.push(server);
  return server;
}

/** Sends SIGHUP and resolves with the reload's outcome line. */
async function reload(server: ServerProcess): Promise<string> {
  const from = server.log.length;
  server.signal('SIGHUP');
  return server.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 60_000, from);
}

const entries = async (path: string): Promise<string[]> => (await readdir(path).catch(() => [])).sort();

/** A snapshot folder whose ashare K-lines are `symbols` × `days` rows (seeded by `seed`): a part that takes a while to write. */
async function bigFolder(path: string, symbols: number, days: number, seed: number): Promise<string> {
  const lines: string[] = [KLINE_HEADER];
  for (let s = 0; s < symbols; s++) {
    const symbol = `sh${String(600000 + s)}`;
    for (let d = 0; d < days; d++) {
      const date = new Date(Date.UTC(2000, 0, 1) + d * 86_400_000).toISOString().slice(0, 10);
      const close = (10 + ((s * 7 + d * 13 + seed) % 97) / 10).toFixed(2);
      lines.push(`${symbol},${date},${close},${close},${close},${close},${1000 + d},${(1000 + d) * 10},1`);
    }
  }
  return writeSnapshotFolder(path, {
    'manifest.json': JSON.stringify({ id: `big-${seed}` }),
    'ashare/klines.csv': `${lines.join('\n')}\n`,
  });
}

describe('a store killed (kill -9) while it writes a part', () => {
  test('the reload fails, the server serves on, and the next start leaves no temporary or marker', async () => {
    const state = join(dir.path, 'killed');
    const first = await bigFolder(join(dir.path, 'big-1'), 300, 1000, 1);
    const second = await bigFolder(join(dir.path, 'big-2'), 300, 1000, 2);
    const link = join(dir.path, 'killed-link');
    await symlink(first, link);
    const server = await serve(state, link);
    const parts = join(state, 'snapshots', 'parts');
    await repoint(link, second);
    // The store child writes the new ashare part as `<part>.tmp-<its pid>-<ms>`: kill that process the moment it shows.
    let killed: number | null = null;
    const from = server.log.length;
    server.signal('SIGHUP');
    const deadline = Date.now() + 60_000;
    while (killed === null && Date.now() < deadline) {
      const tmp = (await entries(parts)).find((n) => n.includes('.tmp-'));
      if (tmp !== undefined) {
        killed = Number(/\.tmp-(\d+)-/.exec(tmp)![1]);
        process.kill(killed, 'SIGKILL');
      } else await new Promise((r) => setTimeout(r, 2));
    }
    assert.notEqual(killed, null, 'the store child was caught writing its part');
    assert.match(
      await server.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 60_000, from),
      /reload: failed: snapshot store process ended \(SIGKILL\) before answering; still serving big-1\./,
    );
    assert.ok(
      (await entries(parts)).some((n) => n.includes(`.tmp-${killed}-`)),
      'the killed store left its temporary',
    );
    await server.kill();
    const next = await serve(state, link);
    assert.match(next.version, /^big-2\./, 'the next start stores the folder whole');
    const left = [...(await entries(parts)), ...(await entries(join(state, 'snapshots')))].filter(
      (n) => n.includes('.tmp-') || n.startsWith('.store-'),
    );
    assert.deepEqual(left, [], 'no temporary part, edition file or store marker is left');
  });
});

describe('KEEP_EDITIONS bounds the parts as well as the editions, whatever the reload rate', () => {
  for (const keep of [1, 2]) {
    test(`KEEP_EDITIONS=${keep}: 12 reloads, each changing ashare, leave ${keep} edition(s) and only their parts`, async () => {
      const state = join(dir.path, `keep-${keep}`);
      const folders: string[] = [];
      for (let i = 0; i < 12; i++) {
        const close = (6.3 + (i + 1) / 100).toFixed(2);
        folders.push(
          await fixtureCopy(join(dir.path, `keep-${keep}-${i}`), [
            { file: 'ashare/klines.csv', from: LAST_ROW, to: LAST_ROW.replace(',6.30,', `,${close},`) },
          ]),
        );
      }
      const link = join(dir.path, `keep-${keep}-link`);
      await symlink(join(dir.path, `keep-${keep}-0`), link);
      const server = await serve(state, link, { KEEP_EDITIONS: String(keep) });
      for (const folder of folders.slice(1)) {
        await repoint(link, folder);
        assert.match(await reload(server), /reload: now serving/);
      }
      // The edition before the last is released (and pruned) once no request reads it: at once here.
      const snapshots = join(state, 'snapshots');
      const editionsLeft = async () => (await entries(snapshots)).filter((n) => n !== 'parts' && n !== 'current.json');
      // A prune deletes the editions, then the parts: wait for the whole of it (at once here; 10 s at most).
      const partsLeft = () => entries(join(snapshots, 'parts'));
      const deadline = Date.now() + 10_000;
      while (((await editionsLeft()).length > keep || (await partsLeft()).length > keep + 2) && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      assert.equal((await editionsLeft()).length, keep, `${keep} edition(s) kept: ${await editionsLeft()}`);
      const parts = await partsLeft();
      // hkstock and usstock never changed: one part each; ashare: one per edition kept.
      assert.deepEqual(
        parts.map((p) => p.split('-')[0]),
        [...Array(keep).fill('ashare'), 'hkstock', 'usstock'],
        `parts: ${parts.join(', ')}`,
      );
    });
  }
});
