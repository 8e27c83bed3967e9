// A start is the first pass of the edition lifecycle: from every state a start can begin from (nothing
// stored, the folder stored already, another edition stored, no folder given) the start does what a
// reload does from the same state: the same edition served, the same markets parsed, the same stages.

import assert from 'node:assert/strict';
import { cp, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { httpRequest } from '../helpers/api-server.js';
import { fixtureCopy, LAST_ROW, LAST_ROW_CLOSE_631 } from '../helpers/fixture-copy.js';
import { repoint, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

/** The pass's outcome line, with its label and timings taken out: what the two must share. */
function outcome(log: string[], label: 'start' | 'reload', from = 0): string {
  const line = log.slice(from).find((l) => new RegExp(`"msg":"${label}: (now serving|unchanged)`).test(l));
  assert.ok(line !== undefined, `a ${label} outcome in:\n${log.slice(from).join('\n')}`);
  const msg = (JSON.parse(line) as { msg: string }).msg.replace(`${label}: `, '');
  return msg.replace(/,? in [\d.]+ s \(.*\)$/, '').replace(/ \([\d.]+ s\)$/, '');
}

/** The stages a pass announced, in order. */
const stages = (log: string[], label: 'start' | 'reload', from = 0): string[] =>
  log.slice(from).flatMap((l) => new RegExp(`"msg":"${label}: stage (\\d)/`).exec(l)?.[1] ?? []);

describe('a start runs the pass a reload runs', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let f: string;
  let g: string;
  const running: ServerProcess[] = [];
  before(async () => {
    dir = await tempDir('mdq-start-reload-');
    f = await fixtureCopy(join(dir.path, 'f'));
    g = await fixtureCopy(join(dir.path, 'g'), [{ file: 'ashare/klines.csv', from: LAST_ROW, to: LAST_ROW_CLOSE_631 }]);
  });
  after(async () => {
    for (const s of running) await s.kill();
    await dir.cleanup();
  });

  /** A server started on a copy of `state` (fresh when null) with `folder`; its start's outcome and stages. */
  async function start(
    name: string,
    state: string | null,
    folder: string | null,
  ): Promise<{ server: ServerProcess; outcome: string; stages: string[] }> {
    const at = join(dir.path, `state-${name}`);
    if (state !== null) await cp(state, at, { recursive: true });
    const server = await startServerProcess({ state: at, ...(folder === null ? {} : { snapshot: folder }) });
    running.push(server);
    return { server, outcome: outcome(server.log, 'start'), stages: stages(server.log, 'start') };
  }

  /** A server serving `serving` (through a link), which then reloads with the link on `folder`. */
  async function reload(name: string, serving: string, folder: string): Promise<{ outcome: string; stages: string[] }> {
    const link = join(dir.path, `link-${name}`);
    await symlink(serving, link);
    const server = await startServerProcess({ state: join(dir.path, `reload-${name}`), snapshot: link });
    running.push(server);
    await repoint(link, folder);
    const from = server.log.length;
    server.signal('SIGHUP');
    await server.waitForLog(/"msg":"reload: (now serving|unchanged)/, 20_000, from);
    return { outcome: outcome(server.log, 'reload', from), stages: stages(server.log, 'reload', from) };
  }

  test('another edition stored, a changed folder given: only the changed market is parsed, as a reload to it does', async () => {
    const seeded = await start('g', null, g);
    await seeded.server.kill();
    const started = await start('g-then-f', join(dir.path, 'state-g'), f);
    const reloaded = await reload('g-then-f', g, f);
    assert.match(
      started.outcome,
      /^now serving fixture-derived\.\w+ \(X-Data-Version\), 137 K-line rows, parsed ashare$/,
    );
    assert.equal(started.outcome, reloaded.outcome);
    assert.deepEqual(started.stages, reloaded.stages);
    assert.deepEqual(started.stages, ['1', '2', '3', '4'], 'read, store, open, publish');
  });

  test('the folder stored already: nothing is read again, as a reload of an unchanged folder', async () => {
    const started = await start('f-again', join(dir.path, 'state-g-then-f'), f);
    const reloaded = await reload('f-again', f, f);
    assert.equal(
      reloaded.outcome.replace(/^unchanged, still serving (\S+)$/, 'now serving $1'),
      started.outcome.replace(/ \(X-Data-Version\).*$/, ''),
      'the same edition',
    );
    assert.match(started.outcome, /nothing to parse$/, 'the start only opens it');
  });

  test('nothing stored, a folder given: every market is parsed, as a reload into a new state folder does', async () => {
    const started = await start('fresh', null, f);
    const other = await reload('fresh', g, f);
    assert.match(started.outcome, /parsed ashare, hkstock, usstock$/);
    assert.equal(
      other.outcome,
      started.outcome.replace(/parsed .*$/, 'parsed ashare'),
      'the reload parses only what its state lacks: the same version',
    );
  });

  test('an edition stored, no folder given: the stored edition is opened, nothing read', async () => {
    const started = await start('no-folder', join(dir.path, 'state-fresh'), null);
    assert.match(started.outcome, /^now serving fixture-derived\.\w+ \(X-Data-Version\), 137 K-line rows, opened$/);
    assert.deepEqual(started.stages, ['3', '4'], 'open and publish only');
    const r = await httpRequest(started.server.port, '/readyz');
    assert.equal(r.status, 200);
  });
});
