// The WebSocket example of docs/api-notes.md run as written (saved as a .mjs file, run by node with the
// repository's `ws`) against a real server over the demo data: every subscription taken, the screen's
// page as GET /screen answers it, then a new edition's `edition`, `bars` and `screen` messages.

import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { appendFile, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { generateDemoSnapshot } from '../../loaders/demo/index.js';
import { storeEdition } from '../../loaders/edition/store-edition.js';
import { openCurrentDataset } from '../../loaders/edition/stored-editions.js';
import { startTestServer } from '../helpers/api-server.js';
import { codeBlocks, REPO } from '../helpers/readme-blocks.js';
import { tempDir } from '../helpers/snapshot-folder.js';

/** Prints what the example logs as one JSON line each, for the test to read (the example logs parsed messages). */
const LOG_AS_JSON = 'console.log = (value) => process.stdout.write(JSON.stringify(value) + "\\n");\n';

test("docs/api-notes.md's WebSocket example runs as written: its subscriptions taken, then every message of a new edition", async (t) => {
  const blocks = codeBlocks('docs/api-notes.md', 'js').filter((b) => b.includes('/api/v1/stream'));
  assert.equal(blocks.length, 1, 'one WebSocket example');
  const dir = await tempDir('mdq-stream-example-');
  let child: ChildProcess | undefined;
  let server: Awaited<ReturnType<typeof startTestServer>> | undefined;
  t.after(async () => {
    child?.kill();
    await server?.close();
    await dir.cleanup();
  });
  const demo = join(dir.path, 'demo');
  await generateDemoSnapshot(demo, { symbolScale: 0.01, years: 1, progress: false });
  server = await startTestServer({ snapshot: demo });
  // As a user saves it: a module file beside a node_modules that has `ws`.
  await writeFile(join(dir.path, 'stream.mjs'), blocks[0]);
  await writeFile(join(dir.path, 'log-json.mjs'), LOG_AS_JSON);
  await symlink(fileURLToPath(new URL('node_modules', REPO)), join(dir.path, 'node_modules'));
  child = spawn(process.execPath, ['--import', './log-json.mjs', 'stream.mjs'], {
    cwd: dir.path,
    env: { ...process.env, MDQ_URL: `http://127.0.0.1:${server.port}`, MDQ_KEY: server.keys.pro },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const messages: any[] = [];
  const wakers = new Set<() => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    messages.push(JSON.parse(line));
    for (const wake of wakers) wake();
  });
  /** The first message `match` accepts; fails after 10 s naming what came. */
  const waitFor = (match: (m: any) => boolean): Promise<any> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = messages.find(match);
        if (found === undefined) return;
        wakers.delete(check), clearTimeout(timer), resolve(found);
      };
      const timer = setTimeout(() => {
        wakers.delete(check);
        reject(new Error(`not seen; got ${JSON.stringify(messages)}; stderr: ${stderr}`));
      }, 10_000);
      wakers.add(check);
      check();
    });

  const welcome = await waitFor((m) => m.type === 'welcome');
  assert.equal(welcome.plan, 'pro');
  for (const channel of ['editions', 'bars', 'screen'])
    await waitFor((m) => m.type === 'subscribed' && m.channel === channel);
  const page = await waitFor((m) => m.type === 'screen' && m.id === 'cheap');
  const rest = await server.get('/api/v1/ashare/screen?max_pe_ratio=15&sort=total_market_cap&limit=20');
  assert.equal(rest.status, 200, rest.text);
  assert.deepEqual([page.total, page.data], [rest.body.total, rest.body.data], 'the page GET /screen answers');
  assert.ok(page.data.length > 0, 'the screen has rows');

  // A new edition: a day added to both symbols the example follows.
  const last = (await readFile(join(demo, 'ashare/klines.csv'), 'utf8')).trimEnd().split('\n').at(-1)!.split(',')[1];
  assert.equal(last, '2026-10-30', "the demo's last day (a Friday)");
  await appendFile(
    join(demo, 'ashare/klines.csv'),
    'sh600000,2026-11-02,8.18,8.30,8.10,8.28,41000,33900000.00,1.033676\n' +
      'sz000001,2026-11-02,20.80,21.10,20.60,21.00,250000,525000000.00,1.563672\n',
  );
  await storeEdition(demo, server.stateDir, { threads: 0 });
  const next = (await openCurrentDataset(server.stateDir))!;
  server.state.dataset = next;
  server.stream.published(next);
  const edition = await waitFor((m) => m.type === 'edition' && m.data_version === next.version);
  assert.deepEqual(
    edition.markets.map((m: { market: string }) => m.market),
    ['ashare'],
  );
  const bars = await waitFor((m) => m.type === 'bars' && m.data_version === next.version);
  assert.deepEqual(Object.keys(bars.data).sort(), ['sh600000', 'sz000001']);
  assert.deepEqual(
    [bars.data.sh600000[0].date, bars.data.sh600000[0].close, bars.data.sz000001[0].close],
    ['2026-11-02', 8.28, 21],
  );
  await waitFor((m) => m.type === 'screen' && m.id === 'cheap' && m.data_version === next.version);
  assert.deepEqual(
    messages.filter((m) => m.type === 'error'),
    [],
    'no message of the example was refused',
  );
});
