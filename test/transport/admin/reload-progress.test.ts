// A reload's stages with progress: recorded per pass, shown while a pass runs (data, health, GET /admin/api/reload), and the load at start as the first entry.

import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LAST_ROW, LAST_ROW_CLOSE_631 } from '../../helpers/fixture-copy.js';
import { type AdminServer, type Operator, startSignedIn } from './admin-server.js';

describe('a real reload pass', () => {
  let s: AdminServer;
  let op: Operator;
  before(async () => ({ s, op } = await startSignedIn()));
  after(() => s.close());

  test('before any reload, the last load is the one at start, with its version and duration', async () => {
    const a = await s.call('/admin/api/data', { cookie: op.cookie });
    assert.equal(a.body.reload.last.at_start, true);
    assert.equal(a.body.reload.last.kind, 'loaded');
    assert.equal(a.body.reload.last.version, s.state.dataset!.version);
    assert.equal(a.body.reload.last.seconds, 0.25);
    assert.equal(a.body.reload.running, null, 'no reload runs');
  });

  test('a changed folder goes through read, store, open and publish in order, rows counted up to the estimate', async () => {
    const path = join(s.folder, 'ashare/klines.csv');
    await writeFile(path, (await readFile(path, 'utf8')).replace(LAST_ROW, LAST_ROW_CLOSE_631));
    s.progress.length = 0;
    const a = await s.write(op, '/admin/api/reload');
    assert.equal(a.body.kind, 'loaded', a.text);
    assert.deepEqual(
      a.body.stages.map((x: any) => x.stage),
      ['read', 'store', 'open', 'publish'],
      'the answer times each stage',
    );
    for (const x of a.body.stages)
      assert.ok(x.seconds >= 0 && x.seconds <= a.body.seconds, `${x.stage} took ${x.seconds} s of ${a.body.seconds} s`);
    const stages = [...new Set(s.progress.map((p) => p.stage))];
    assert.deepEqual(stages, ['read', 'store', 'open', 'publish'], 'progress was told each stage as it started');
    assert.deepEqual([...new Set(s.progress.map((p) => p.step))], [1, 2, 3, 4]);
    const read = s.progress.filter((p) => p.stage === 'read');
    assert.equal(read[0].totalRows, 0, 'told as the pass begins, before the plan');
    assert.ok(read.at(-1)!.totalRows > 0, 'then the read stage knows an estimate of the rows');
    assert.ok(read.at(-1)!.rows > 0, 'rows read were counted');
    for (let i = 1; i < read.length; i++) assert.ok(read[i].rows >= read[i - 1].rows, 'rows only go up');
    assert.deepEqual(
      s.progress.at(-1)!.done.map((d) => d.stage),
      ['read', 'store', 'open'],
      'at publish, read, store and open are done',
    );
    assert.equal(s.reloader.progress, null, 'nothing runs after the pass');
  });

  test('after it, the data page shows that reload (not the start) with its stages', async () => {
    const a = await s.call('/admin/api/data', { cookie: op.cookie });
    assert.equal(a.body.reload.last.at_start, false);
    assert.deepEqual(
      a.body.reload.last.stages.map((x: any) => x.stage),
      ['read', 'store', 'open', 'publish'],
    );
    assert.equal(a.body.reload.at_start.at_start, true, 'the load at start stays available');
    const r = await s.call('/admin/api/reload', { cookie: op.cookie });
    assert.equal(r.status, 200);
    assert.equal(r.body.running, null);
    assert.equal(r.body.serving, s.state.dataset!.version);
  });

  test('an unchanged folder stops after open: nothing to publish', async () => {
    const a = await s.write(op, '/admin/api/reload');
    assert.equal(a.body.kind, 'unchanged');
    assert.deepEqual(
      a.body.stages.map((x: any) => x.stage),
      ['read', 'open'],
    );
  });
});

describe('a pass held at a stage', () => {
  let s: AdminServer;
  let op: Operator;
  let finish: (outcome: unknown) => void = () => {};
  let progress: unknown = null;
  before(
    async () =>
      ({ s, op } = await startSignedIn({
        reload: {
          run: () => new Promise((resolve) => (finish = resolve)),
          progress: () => progress,
        },
      })),
  );
  after(() => s.close());

  test('while it runs, GET /admin/api/reload, the data and the health page show its stage and progress', async () => {
    progress = {
      stage: 'read',
      step: 1,
      steps: 3,
      label: 'reading, checking and storing the snapshot folder',
      folder: '/snap',
      rows: 250,
      totalRows: 1000,
      seconds: 2,
      stageSeconds: 2,
      secondsLeft: 6,
      done: [],
    };
    const pending = s.write(op, '/admin/api/reload');
    await new Promise((r) => setTimeout(r, 50)); // the write reaches the ReloadLog
    const r = await s.call('/admin/api/reload', { cookie: op.cookie });
    assert.equal(r.body.running.stage, 'read');
    assert.deepEqual([r.body.running.step, r.body.running.steps], [1, 3]);
    assert.equal(r.body.running.fraction, 0.25);
    assert.equal(r.body.running.seconds_left, 6);
    assert.equal(typeof r.body.running.started, 'string', 'when the pass was asked for');
    assert.equal((await s.call('/admin/api/data', { cookie: op.cookie })).body.reload.running.stage, 'read');
    assert.equal((await s.call('/admin/api/health', { cookie: op.cookie })).body.reload.stage, 'read');

    progress = {
      ...(progress as object),
      stage: 'open',
      step: 2,
      rows: 1000,
      secondsLeft: null,
      done: [{ stage: 'read', seconds: 8 }],
    };
    const open = (await s.call('/admin/api/reload', { cookie: op.cookie })).body.running;
    assert.equal(open.stage, 'open');
    assert.equal(open.fraction, null, 'open counts no rows');
    assert.deepEqual(open.done, [{ stage: 'read', seconds: 8 }]);

    progress = null;
    finish({
      kind: 'loaded',
      version: 'v2',
      seconds: 9,
      stages: [
        { stage: 'read', seconds: 8 },
        { stage: 'open', seconds: 1 },
      ],
    });
    const a = await pending;
    assert.equal(a.body.kind, 'loaded');
    const after = await s.call('/admin/api/reload', { cookie: op.cookie });
    assert.equal(after.body.running, null, 'nothing runs once the pass is over');
    assert.equal(after.body.last.version, 'v2');
    assert.equal((await s.call('/admin/api/health', { cookie: op.cookie })).body.reload, null);
  });

  test('a running pass whose Reloader tells no stage still shows as running', async () => {
    const pending = s.write(op, '/admin/api/reload');
    await new Promise((r) => setTimeout(r, 50));
    const r = await s.call('/admin/api/reload', { cookie: op.cookie });
    assert.equal(r.body.running.stage, null);
    finish({ kind: 'unchanged', version: 'v2', seconds: 0.1 });
    await pending;
    assert.equal((await s.call('/admin/api/reload', { cookie: op.cookie })).body.running, null);
  });
});
