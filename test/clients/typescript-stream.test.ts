// The TypeScript client's push (`client.stream`) as its users install it (the packed tarball in an
// empty project, `ws` from the npm cache), against the real server as a process whose editions the
// test makes (a trading day appended to its snapshot folder, SIGHUP): the README's stream example, run
// as written, receives welcome, subscribed, the screen's page, the edition and the new day's bars
// (equal to GET /klines?symbols=…&start=<day>&fields=*), and its `break` closes the socket; a server
// killed and started again on the same port and state is survived (reconnected, subscribed again, the
// next edition arrives); a bad key and one connection too many end the stream with a StreamError and
// no retry; msgpack frames read as the same messages; in Chromium the page's own WebSocket
// authenticates by its first message.

import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { after, before, test } from 'node:test';
import { pathToFileURL } from 'node:url';
import { type AppendedDays, appendedDays, metric, reload, until } from '../helpers/appended-days.js';
import { packedClientProject, type UserProject } from '../helpers/packed-client.js';
import { assertStreamExample } from '../helpers/stream-example.js';
import { codeBlocks } from '../helpers/readme-blocks.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { CHROMIUM, chromiumUnavailable } from '../helpers/chromium.js';
import { tempDir } from '../helpers/snapshot-folder.js';

/** A pushed message as the test reads it (the client's own types are checked by tsc in the user's project). */
type Message = { type: string } & Record<string, any>;
interface MessageStream extends AsyncIterableIterator<Message> {
  close(): Promise<void>;
}
/** What the test uses of the installed package, loaded from the user's project at run time. */
interface Installed {
  Client: new (options: {
    baseUrl: string;
    key: string;
    format?: 'json' | 'msgpack';
  }) => {
    stream(subscriptions: object[], options?: object): MessageStream;
  };
  StreamError: new (...args: never[]) => Error & { code: string; status: number | null; closeCode: number | null };
}

/** Upgrades of the stream refused 401, as /metrics counts them. */
const refused401 = (): Promise<number> =>
  metric(server.port, 'mdq_http_requests_total', { route: '/api/v1/stream', status: '401' });

let dir: Awaited<ReturnType<typeof tempDir>>;
let days: AppendedDays;
let server: ServerProcess;
let keys: ServerProcess['keys'];
let user: UserProject;
let mdq: Installed;
const open: MessageStream[] = [];
const base = (): string => `http://127.0.0.1:${server.port}`;

before(async () => {
  dir = await tempDir('mdq-ts-stream-');
  days = await appendedDays(dir.path);
  server = await startServerProcess({ snapshot: days.link, state: join(dir.path, 'state') });
  keys = server.keys;
  user = await packedClientProject('mdq-ts-stream-user-');
  mdq = (await import(pathToFileURL(join(user.dir, 'node_modules/@mdq/client/dist/index.js')).href)) as Installed;
});

after(async () => {
  for (const s of open) await s.close();
  await server?.kill();
  await user?.cleanup();
  await dir?.cleanup();
});

/** A stream of the installed client, closed when the file ends. */
function stream(key: string, subscriptions: object[], format?: 'json' | 'msgpack'): MessageStream {
  const s = new mdq.Client({ baseUrl: base(), key, format }).stream(subscriptions);
  open.push(s);
  return s;
}

/** The next `n` messages of `s`, each within `timeoutMs`. */
async function take(s: MessageStream, n: number, timeoutMs = 30_000): Promise<Message[]> {
  const out: Message[] = [];
  for (let i = 0; i < n; i++) {
    const next = await within(s.next(), `message ${out.length + 1} of ${n}`, timeoutMs);
    assert.equal(next.done, false, `the stream ended after ${JSON.stringify(out)}`);
    out.push(next.value);
  }
  return out;
}

/** The JSON a GET of `path` answers to the internal key. */
async function get(path: string): Promise<any> {
  const res = await fetch(`${base()}${path}`, { headers: { 'x-api-key': keys.internal! } });
  assert.equal(res.status, 200, path);
  return res.json();
}

/** Resolves as `promise` does, or rejects naming `what` after `timeoutMs`. */
async function within<T>(promise: Promise<T>, what: string, timeoutMs = 30_000): Promise<T> {
  let timer!: NodeJS.Timeout;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

/** The error the stream's next message ends with (within 10 s: a stream that retries instead never ends). */
const failure = (s: MessageStream): Promise<InstanceType<Installed['StreamError']>> =>
  within(
    s.next().then(
      (r) => assert.fail(`no error: ${JSON.stringify(r)}`),
      (e: InstanceType<Installed['StreamError']>) => e,
    ),
    'the StreamError',
    10_000,
  );

test("the README's stream example, run as written: welcome, subscribed, the screen, then the new day's edition and bars as GET answers them; its break closes the socket", async () => {
  const blocks = codeBlocks('clients/typescript/README.md', 'ts').filter((b) => b.includes('.stream('));
  assert.equal(blocks.length, 1, "the client's README shows one stream example");
  await writeFile(join(user.dir, 'readme-stream.ts'), blocks[0]);
  const compiled = await user.tsc(['readme-stream.ts'], true);
  assert.ok(compiled.ok, compiled.out);
  const file = join(user.dir, 'out/readme-stream.js');
  await writeFile(file, `${await readFile(file, 'utf8')}\nexport { messages };\n`); // hands its messages to this test
  const page = await get('/api/v1/ashare/screen?max_pe_ratio=15&sort=pe_ratio&limit=5');
  const first = server.version;

  process.env.MDQ_URL = base();
  process.env.MDQ_KEY = keys.pro;
  const ran = import(pathToFileURL(file).href) as Promise<{ messages: Message[] }>;
  await until('the example subscribed to its screen (its last subscription)', async () => {
    return (await metric(server.port, 'mdq_stream_subscriptions', { channel: 'screen' })) >= 1;
  });
  const day = await days.addDay();
  const version = await reload(server);
  const { messages } = await within(ran, 'the example ends at its bars');

  const rest = await get(`/api/v1/ashare/klines?symbols=sh600001,000002.SZ&start=${day}&fields=*`);
  assertStreamExample(messages, {
    first,
    version,
    day,
    page,
    bars: rest.data,
    screenQuery: { sort: 'pe_ratio', limit: 5, max_pe_ratio: 15 },
  });
  const pushed = messages[6];
  assert.deepEqual(
    Object.values(pushed.data).map((rows: any) => rows.map((r: { date: string }) => r.date)),
    [[day], [day]],
  );
  await until('the break closed the socket', async () => (await metric(server.port, 'mdq_stream_connections')) === 0);
});

test('a server killed and started again on its port and state: the stream reconnects, subscribes again, and the next edition arrives', async () => {
  const s = stream(keys.enterprise!, [
    { channel: 'editions' },
    { channel: 'bars', market: 'ashare', symbols: ['sh600001'] },
  ]);
  const before = await take(s, 3);
  assert.deepEqual(
    before.map((m) => m.type),
    ['welcome', 'subscribed', 'subscribed'],
  );
  const { port } = server;
  await server.kill(); // SIGKILL: no close frame, the socket just drops
  server = await startServerProcess({ snapshot: days.link, state: join(dir.path, 'state'), port });
  const restartedAt = performance.now();
  const again = await take(s, 3);
  console.log(`# welcomed again ${Math.round(performance.now() - restartedAt)} ms after the restarted server served`);
  assert.deepEqual(again, [{ ...before[0], data_version: server.version }, before[1], before[2]]);
  const day = await days.addDay();
  const version = await reload(server);
  const [edition, bars] = await take(s, 2);
  assert.equal(edition.type, 'edition');
  assert.equal(edition.data_version, version);
  assert.deepEqual(edition.markets, [{ market: 'ashare', rows_added: 2, last_date: day, history_changed: false }]);
  assert.deepEqual(bars, {
    type: 'bars',
    market: 'ashare',
    data_version: version,
    data: (await get(`/api/v1/ashare/klines?symbols=sh600001&start=${day}&fields=*`)).data,
    factor_changed: [],
  });
  await s.close();
});

test('a bad key ends the stream with StreamError unauthorized (401), tried once; one connection over the plan ends it with too_many_connections (4008)', async () => {
  const refusedBefore = await refused401();
  const bad = stream(`${keys.pro}x`, [{ channel: 'editions' }]);
  const error = await failure(bad);
  assert.ok(error instanceof mdq.StreamError, String(error));
  assert.deepEqual([error.name, error.code, error.status, error.closeCode], ['StreamError', 'unauthorized', 401, null]);
  assert.deepEqual(await bad.next(), { value: undefined, done: true }, 'ended after its error');
  await new Promise((r) => setTimeout(r, 1500));
  assert.equal(await refused401(), refusedBefore + 1, 'one upgrade asked: no retry');

  const first = stream(keys.free!, []); // free: one connection per key
  assert.equal((await take(first, 1))[0].type, 'welcome');
  const second = stream(keys.free!, [{ channel: 'editions' }]);
  const over = await failure(second);
  assert.ok(over instanceof mdq.StreamError);
  assert.deepEqual([over.code, over.status, over.closeCode], ['too_many_connections', null, 4008]);
  await first.close();
  await until('both closed', async () => (await metric(server.port, 'mdq_stream_connections')) === 0);
});

test('a subscription message over 64 KiB ends the stream with StreamError message_too_big (1009), not sent again', async () => {
  // 8,000 codes: ~100 KB, over the frame limit and under what uWS takes in (the server reads it and closes 1009).
  const symbols = Array.from({ length: 8000 }, (_, i) => `sh6${String(i).padStart(5, '0')}`);
  const big = stream(keys.pro!, [{ channel: 'bars', market: 'ashare', symbols }]);
  assert.equal((await take(big, 1))[0].type, 'welcome'); // the subscriptions go after it
  const error = await failure(big);
  assert.ok(error instanceof mdq.StreamError, String(error));
  assert.deepEqual([error.code, error.status, error.closeCode], ['message_too_big', null, 1009]);
  assert.deepEqual(await big.next(), { value: undefined, done: true }, 'ended after its error');
  await until('its socket closed', async () => (await metric(server.port, 'mdq_stream_connections')) === 0);
});

test("a client of format msgpack streams msgpack frames: the same messages as JSON's", async () => {
  const subscriptions = [{ channel: 'screen', market: 'ashare', id: 'top', query: { sort: 'close', limit: 3 } }];
  const json = await take(stream(keys.enterprise!, subscriptions), 3);
  const packed = await take(stream(keys.enterprise!, subscriptions, 'msgpack'), 3);
  assert.deepEqual(
    json.map((m) => m.type),
    ['welcome', 'subscribed', 'screen'],
  );
  assert.deepEqual(packed, json);
});

/** Serves the installed package's files under /client/ and an empty page at /, as a site would. */
async function serveClient(root: string): Promise<Server> {
  const types: Record<string, string> = { '.js': 'text/javascript', '.html': 'text/html' };
  const site = createServer(async (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/')
      return res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>stream</title>');
    const file = normalize(join(root, path.replace(/^\/client\//, '')));
    if (!path.startsWith('/client/') || !file.startsWith(root)) return res.writeHead(404).end();
    try {
      res
        .writeHead(200, { 'content-type': types[extname(file)] ?? 'application/octet-stream' })
        .end(await readFile(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return site;
}

test("in Chromium, the page's own WebSocket: the key sent as the first message, welcome and the subscriptions; a bad key ends it with StreamError unauthorized (4001)", async (t) => {
  const skip = await chromiumUnavailable();
  if (skip !== null) {
    if (process.env.CI === 'true') assert.fail(`${skip}; CI must run the browser test`);
    return t.skip(skip);
  }
  const site = await serveClient(join(user.dir, 'node_modules/@mdq/client/'));
  t.after(() => new Promise((resolve) => site.close(resolve)));
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu'],
    headless: true,
  });
  t.after(() => browser.close());
  const page = await browser.newPage();
  const address = site.address() as { port: number };
  await page.goto(`http://127.0.0.1:${address.port}/`);
  // Run in the page (the tests compile without the DOM's types): the stream alone, as a page imports it.
  const args = JSON.stringify({ baseUrl: base(), key: keys.pro, bad: `${keys.pro}x` });
  const ran = page.evaluate(`(async () => {
    const { baseUrl, key, bad } = ${args};
    const { stream } = await import('/client/dist/stream.js');
    const out = { node: typeof process !== 'undefined', global: typeof WebSocket, messages: [], error: null };
    const query = { bounds: { pe_ratio: { max: 15 } }, sort: 'pe_ratio', limit: 5 };
    for await (const m of stream({ baseUrl, key }, [{ channel: 'editions' }, { channel: 'screen', market: 'ashare', id: 'cheap', query }])) {
      out.messages.push(m);
      if (m.type === 'screen') break;
    }
    try {
      for await (const m of stream({ baseUrl, key: bad }, [{ channel: 'editions' }])) out.messages.push(m);
    } catch (e) {
      out.error = { name: e.name, code: e.code, status: e.status, closeCode: e.closeCode };
    }
    return out;
  })()`);
  const seen = (await within(ran, 'the page ends its streams')) as {
    node: boolean;
    global: string;
    messages: Message[];
    error: object | null;
  };
  assert.deepEqual([seen.node, seen.global], [false, 'function'], "a browser: no process, the page's WebSocket");
  assert.deepEqual(
    seen.messages.map((m) => m.type),
    ['welcome', 'subscribed', 'subscribed', 'screen'],
  );
  assert.equal(seen.messages[0].plan, 'pro');
  const page5 = await get('/api/v1/ashare/screen?max_pe_ratio=15&sort=pe_ratio&limit=5');
  assert.deepEqual(seen.messages[3].data, page5.data);
  assert.deepEqual(seen.error, { name: 'StreamError', code: 'unauthorized', status: null, closeCode: 4001 });
});
