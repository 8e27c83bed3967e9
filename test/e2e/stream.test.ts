// The push protocol (decisions §16) against the real server process: auth both ways, both formats,
// each channel's subscribe and unsubscribe, every error code, the plans' limits, charges seen in
// /quota, and the messages of editions made by SIGHUP onto folders with new days appended: `bars`
// equal to the batch K-lines of those days, each screen page equal to GET /screen with
// entered/exited the set difference, every message as its declared schema.

import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { appendFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { SERVER_MESSAGES } from '../../transport/stream/protocol.js';
import { httpRequest } from '../helpers/api-server.js';
import { assertProblem } from '../helpers/e2e.js';
import { fixtureCopy } from '../helpers/fixture-copy.js';
import { repoint, type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';
import { type Message, openStream, type StreamClient, UpgradeRefused, welcomed } from '../helpers/stream-client.js';

const KEYS_JS = fileURLToPath(new URL('../../loaders/cli/keys.js', import.meta.url));

/**
 * `tight`: one connection, five subscriptions, 5 rows a day; `slow`: a bucket of 3 requests;
 * `solo`: one connection (the key-change tests). The built-in plans keep the spec's figures.
 */
const PLANS = {
  tight: { rpm: 600, daily_quota: 5, batch: 5, rows_per_call: 100, connections: 1, subscriptions: 5 },
  slow: { rpm: 3, daily_quota: 1000, batch: 5, rows_per_call: 100, connections: 5, subscriptions: 50 },
  solo: { rpm: 600, daily_quota: 1000, batch: 5, rows_per_call: 100, connections: 2, subscriptions: 50 },
};

/** Rows B appends to the fixture's ashare: two new days; sz000002's factor moves (1 → 1.1); sh600009 trades only the second day. */
const NEW_DAYS = [
  'sh600001,2025-03-17,6.30,6.50,6.28,6.45,50000,32000000.00,2.157024',
  'sh600001,2025-03-18,6.45,6.55,6.40,6.50,51000,33000000.00,2.157024',
  'sz000002,2025-03-17,7.33,7.40,7.30,7.35,13000,9500000.00,1.1',
  'sz000005,2025-03-17,5.30,6.00,5.29,6.00,9000,5200000.00,',
  'sh600009,2025-03-18,8.00,8.00,6.90,7.00,3000,2200000.00,1',
];
/** C adds one more day (one row). */
const DAY_C = 'sh600001,2025-03-19,6.50,6.60,6.45,6.55,40000,26000000.00,2.157024';
/** D adds one more (two rows). */
const DAY_D = [
  'sh600001,2025-03-20,6.55,6.70,6.50,6.60,40000,26000000.00,2.157024',
  'sz000005,2025-03-20,6.00,6.10,5.90,6.05,8000,4800000.00,',
];

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: ServerProcess;
let link: string;
let folders: Record<'A' | 'B' | 'C' | 'D', string>;
let versions: string[];
const keys: Record<string, string> = {};
const clients: StreamClient[] = [];

function keysCommand(...args: string[]): string {
  const r = spawnSync(process.execPath, [KEYS_JS, ...args, '--state', join(dir.path, 'state')], {
    encoding: 'utf8',
    env: { ...process.env, STATE_DIR: '', PLANS_FILE: join(dir.path, 'plans.json') },
  });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout.trim().split('\n').at(-1)!;
}

before(async () => {
  dir = await tempDir('mdq-stream-');
  await writeFile(join(dir.path, 'plans.json'), JSON.stringify(PLANS));
  const A = await fixtureCopy(join(dir.path, 'A'));
  const B = await fixtureCopy(join(dir.path, 'B'), [
    // An old day corrected: the market changes, but the row is not "added".
    {
      file: 'ashare/klines.csv',
      from: 'sz000003,2025-03-14,3.09,3.14,3.05,3.11,9900,3078900.00,1.031000',
      to: 'sz000003,2025-03-14,3.09,3.14,3.05,3.12,9900,3078900.00,1.031000',
    },
  ]);
  await appendFile(join(B, 'ashare/klines.csv'), `${NEW_DAYS.join('\n')}\n`);
  const C = await fixtureCopy(join(dir.path, 'C'));
  await appendFile(join(C, 'ashare/klines.csv'), `${[...NEW_DAYS, DAY_C].join('\n')}\n`);
  const D = await fixtureCopy(join(dir.path, 'D'));
  await appendFile(join(D, 'ashare/klines.csv'), `${[...NEW_DAYS, DAY_C, ...DAY_D].join('\n')}\n`);
  folders = { A, B, C, D };
  link = join(dir.path, 'current');
  await symlink(A, link);
  server = await startServerProcess({
    snapshot: link,
    state: join(dir.path, 'state'),
    env: { PLANS_FILE: join(dir.path, 'plans.json') },
  });
  Object.assign(keys, server.keys);
  for (const plan of ['tight', 'slow', 'solo']) keys[plan] = keysCommand('create', '--plan', plan, '--org', plan);
  keys.solo2 = keysCommand('create', '--plan', 'solo', '--org', 'solo two');
  await new Promise((r) => setTimeout(r, 1500)); // the running server takes the new keys within a second
  versions = [server.version];
});

after(async () => {
  for (const c of clients) c.ws.terminate();
  await server?.kill();
  await dir?.cleanup();
});

/** A stream kept for the file's end (every message it got is held to its schema there). */
async function stream(options: Parameters<typeof openStream>[1]): Promise<StreamClient> {
  const client =
    options?.key === undefined ? await openStream(server.port, options) : await welcomed(server.port, options);
  clients.push(client);
  return client;
}

const get = (path: string, key = keys.internal) => httpRequest(server.port, path, { headers: { 'x-api-key': key } });
const usedToday = async (key: string): Promise<number> => (await get('/api/v1/quota', key)).body.used;

/** SIGHUP onto `folder`; resolves with the new version. */
async function reloadOnto(folder: string): Promise<string> {
  await repoint(link, folder);
  const from = server.log.length;
  server.signal('SIGHUP');
  const line = await server.waitForLog(/reload: (now serving|unchanged|snapshot rejected|failed)/, 15_000, from);
  const version = /now serving (\S+)/.exec(line)?.[1];
  assert.ok(version !== undefined, line);
  versions.push(version);
  return version;
}

const subscribe = (c: StreamClient, fields: object): void => c.send({ action: 'subscribe', ...fields });

/** Sends `message` and waits for the reply to it (its echo, or an error naming it). */
async function ask(c: StreamClient, message: object): Promise<Message> {
  const from = c.messages.length;
  c.send(message);
  return c.waitFor((m) => m.type === 'subscribed' || m.type === 'unsubscribed' || m.type === 'error', 5000, from);
}

test('a key in the upgrade: welcome with the data version, the plan and its stream limits', async () => {
  const c = await stream({ key: keys.pro });
  assert.deepEqual(c.messages[0], {
    type: 'welcome',
    data_version: server.version,
    plan: 'pro',
    limits: { connections: 5, subscriptions: 50 },
  });
  const internal = await stream({ key: keys.internal });
  assert.deepEqual(internal.messages[0].limits, { connections: null, subscriptions: null }, 'internal: unlimited');
  const bearer = await stream({ headers: { authorization: `Bearer ${keys.enterprise}` } });
  assert.equal((await bearer.waitFor((m) => m.type === 'welcome')).plan, 'enterprise');
});

test('a bad key, two keys, a bad format or parameter: the upgrade is answered with its HTTP problem, never upgraded', async () => {
  const refused = async (options: Parameters<typeof openStream>[1]): Promise<UpgradeRefused> => {
    const error = await openStream(server.port, options).then(
      (c) => (c.close(), assert.fail('upgraded')),
      (e: unknown) => e,
    );
    assert.ok(error instanceof UpgradeRefused, String(error));
    return error;
  };
  const bad = await refused({ key: `${keys.pro}x` });
  assert.equal(bad.status, 401);
  assert.equal(bad.headers['content-type'], 'application/problem+json');
  assert.equal(bad.headers['www-authenticate'], 'Bearer realm="mdq"');
  assert.equal(bad.body.code, 'unauthorized');
  const two = await refused({ key: keys.pro, headers: { authorization: `Bearer ${keys.free}` } });
  assert.deepEqual([two.status, two.body.code], [401, 'unauthorized']);
  const format = await refused({ key: keys.pro, format: 'xml' });
  assert.deepEqual([format.status, format.body.code, format.body.param], [400, 'invalid_parameter', 'format']);
  const unknown = await refused({ key: keys.pro, query: 'symbols=sh600001' });
  assert.deepEqual([unknown.status, unknown.body.code, unknown.body.param], [400, 'invalid_parameter', 'symbols']);
  const plain = await get('/api/v1/stream', keys.pro);
  assertProblem(plain, 426, 'upgrade_required');
  assert.equal(plain.headers.upgrade, 'websocket');
});

test('a browser: no key in the upgrade, then an auth message within 5 s; a bad key, another message first, or none: close 4001', async () => {
  const browser = await stream({});
  browser.send({ action: 'auth', key: keys.pro });
  const welcome = await browser.waitFor((m) => m.type === 'welcome');
  assert.equal(welcome.plan, 'pro');
  assert.deepEqual(await ask(browser, { action: 'auth', key: keys.pro }), {
    type: 'error',
    code: 'invalid_parameter',
    param: 'action',
    detail: 'action: this connection has a key already',
    request: { action: 'auth', key: keys.pro },
  });

  const badKey = await stream({});
  badKey.send({ action: 'auth', key: `${keys.pro}x` });
  assert.deepEqual(await badKey.closed, { code: 4001, reason: 'unauthorized' });
  const first = await stream({});
  first.send({ action: 'subscribe', channel: 'editions' });
  assert.deepEqual(await first.closed, { code: 4001, reason: 'unauthorized' });
  const started = performance.now();
  const silent = await stream({});
  assert.deepEqual(await silent.closed, { code: 4001, reason: 'unauthorized' });
  const waited = performance.now() - started;
  assert.ok(waited >= 4900 && waited < 7000, `closed after ${Math.round(waited)} ms, about 5 s`);
  assert.deepEqual(silent.messages, [], 'nothing sent before the key');
});

test('?format=msgpack: every message a binary frame holding the value its JSON frame would', async () => {
  const json = await stream({ key: keys.enterprise });
  const packed = await stream({ key: keys.enterprise, format: 'msgpack' });
  const query = { sort: 'pe_ratio', order: 'asc', limit: 4 };
  for (const c of [json, packed]) {
    subscribe(c, { channel: 'screen', market: 'ashare', id: 'cheap', query });
    await c.waitFor((m) => m.type === 'screen');
    c.send({ action: 'subscribe', channel: 'nope' });
    await c.waitFor((m) => m.type === 'error');
  }
  assert.ok(packed.frames.every((f) => f.binary) && json.frames.every((f) => !f.binary));
  assert.deepEqual(packed.messages, json.messages);
  assert.deepEqual(
    json.messages.map((m) => m.type),
    ['welcome', 'subscribed', 'screen', 'error'],
  );
  for (const c of [json, packed]) c.close();
});

test('every error of a client message, each naming its field and echoing the request; the socket stays open', async () => {
  const c = await stream({ key: keys.pro });
  const cases: [object | string, string, string | undefined][] = [
    ['not json', 'invalid_parameter', 'message'],
    ['[1,2]', 'invalid_parameter', 'message'],
    [{ action: 'dance' }, 'invalid_parameter', 'action'],
    [{ action: 'subscribe' }, 'invalid_parameter', 'channel'],
    [{ action: 'subscribe', channel: 'quotes' }, 'invalid_parameter', 'channel'],
    [{ action: 'subscribe', channel: 'editions', market: 'ashare' }, 'invalid_parameter', 'market'],
    [{ action: 'subscribe', channel: 'bars', market: 'ashare' }, 'invalid_parameter', 'symbols'],
    [{ action: 'subscribe', channel: 'bars', market: 'ashare', symbols: [] }, 'invalid_parameter', 'symbols'],
    [{ action: 'subscribe', channel: 'bars', market: 'ashare', symbols: [7] }, 'invalid_parameter', 'symbols'],
    [{ action: 'subscribe', channel: 'bars', market: 'mars', symbols: '*' }, 'unknown_market', 'market'],
    [
      { action: 'subscribe', channel: 'bars', market: 'ashare', symbols: ['sh600001', 'zz9'] },
      'unknown_symbol',
      'symbols',
    ],
    [{ action: 'subscribe', channel: 'screen', market: 'ashare', id: 'a' }, 'invalid_parameter', 'query'],
    [
      { action: 'subscribe', channel: 'screen', market: 'ashare', id: 'x'.repeat(65), query: {} },
      'invalid_parameter',
      'id',
    ],
    [
      { action: 'subscribe', channel: 'screen', market: 'ashare', id: 'a', query: { min_foo: 1 } },
      'invalid_parameter',
      'min_foo',
    ],
    [
      { action: 'subscribe', channel: 'screen', market: 'ashare', id: 'a', query: { limit: 'ten' } },
      'invalid_parameter',
      'limit',
    ],
    [
      { action: 'subscribe', channel: 'screen', market: 'ashare', id: 'a', query: { colour: 'red' } },
      'invalid_parameter',
      'colour',
    ],
    [
      { action: 'subscribe', channel: 'screen', market: 'ashare', id: 'a', query: { as_of: '2025-03-01' } },
      'invalid_parameter',
      'as_of',
    ],
    [
      { action: 'subscribe', channel: 'screen', market: 'ashare', id: 'a', query: { min_pe_ratio: true } },
      'invalid_parameter',
      'min_pe_ratio',
    ],
    [
      {
        action: 'subscribe',
        channel: 'screen',
        market: 'ashare',
        id: 'a',
        query: { min_pe_ratio: 9, max_pe_ratio: 2 },
      },
      'invalid_parameter',
      'min_pe_ratio',
    ],
    [{ action: 'subscribe', channel: 'screen', market: 'nasdaq', id: 'a', query: {} }, 'unknown_market', 'market'],
  ];
  for (const [message, code, param] of cases) {
    const from = c.messages.length;
    c.send(message);
    const reply = await c.waitFor((m) => m.type === 'error' || m.type === 'subscribed', 5000, from);
    assert.equal(reply.type, 'error', `${JSON.stringify(message)} is refused`);
    assert.equal(reply.code, code, JSON.stringify(message));
    assert.equal(reply.param, param, JSON.stringify(message));
    assert.ok(reply.detail.startsWith(`${param}: `), reply.detail);
    if (typeof message === 'object') assert.deepEqual(reply.request, message, 'the request echoed');
    else assert.equal(reply.request, undefined, 'no request: the frame held no JSON object');
  }
  c.send(Buffer.from([0xff, 0x00, 0x13]), true);
  const binary = await c.waitFor((m) => m.type === 'error' && m.param === 'message' && /binary/.test(m.detail));
  assert.equal(binary.code, 'invalid_parameter');
  assert.equal(c.ws.readyState, c.ws.OPEN, 'every error leaves the socket open');
  // The same screen query over GET /screen is refused for the same parameter (one validator).
  assertProblem(
    await get('/api/v1/ashare/screen?min_pe_ratio=9&max_pe_ratio=2'),
    400,
    'invalid_parameter',
    'min_pe_ratio',
  );
});

test('subscribe and unsubscribe per channel: each echoed; bars add symbols, leave some or "*"; a screen is left by id', async () => {
  const c = await stream({ key: keys.enterprise }); // 200 subscriptions: room for a "*" (100)
  assert.deepEqual(await ask(c, { action: 'subscribe', channel: 'editions' }), {
    type: 'subscribed',
    channel: 'editions',
  });
  assert.deepEqual(await ask(c, { action: 'subscribe', channel: 'bars', market: 'ashare', symbols: ['600001.SH'] }), {
    type: 'subscribed',
    channel: 'bars',
    market: 'ashare',
    symbols: ['600001.SH'],
  });
  await ask(c, { action: 'subscribe', channel: 'bars', market: 'ashare', symbols: ['sz000002', 'SH600001'] });
  const screen = { action: 'subscribe', channel: 'screen', market: 'hkstock', id: 'hk', query: { limit: 2 } };
  assert.deepEqual(await ask(c, screen), {
    type: 'subscribed',
    channel: 'screen',
    market: 'hkstock',
    id: 'hk',
    query: { limit: 2 },
  });
  const page = await c.waitFor((m) => m.type === 'screen');
  assert.equal(page.id, 'hk');
  const again = await ask(c, screen);
  assert.deepEqual([again.type, again.code, again.param], ['error', 'invalid_parameter', 'id'], 'one name, one screen');
  assert.deepEqual(await ask(c, { action: 'unsubscribe', channel: 'screen', id: 'hk' }), {
    type: 'unsubscribed',
    channel: 'screen',
    id: 'hk',
  });
  assert.deepEqual(await ask(c, { action: 'unsubscribe', channel: 'bars', market: 'ashare', symbols: ['sh600001'] }), {
    type: 'unsubscribed',
    channel: 'bars',
    market: 'ashare',
    symbols: ['sh600001'],
  });
  assert.equal(
    (await ask(c, { action: 'subscribe', channel: 'bars', market: 'usstock', symbols: '*' })).type,
    'subscribed',
  );
  const partial = await ask(c, { action: 'unsubscribe', channel: 'bars', market: 'usstock', symbols: ['usAAPL'] });
  assert.deepEqual([partial.type, partial.code, partial.param], ['error', 'invalid_parameter', 'symbols']);
  assert.equal(
    (await ask(c, { action: 'unsubscribe', channel: 'bars', market: 'usstock', symbols: '*' })).type,
    'unsubscribed',
  );
  assert.equal((await ask(c, { action: 'unsubscribe', channel: 'editions' })).type, 'unsubscribed');
  c.close();
});

test("a plan's connections per key: one more is closed 4008 too_many_connections; a closed one gives its place back", async () => {
  const first = await stream({ key: keys.tight });
  const second = await openStream(server.port, { key: keys.tight });
  clients.push(second);
  assert.deepEqual(await second.closed, { code: 4008, reason: 'too_many_connections' });
  assert.deepEqual(second.messages, [], 'no welcome');
  // By message too (browsers): the auth is taken, the connection refused.
  const browser = await stream({});
  browser.send({ action: 'auth', key: keys.tight });
  assert.deepEqual(await browser.closed, { code: 4008, reason: 'too_many_connections' });
  first.close();
  await first.closed;
  await new Promise((r) => setTimeout(r, 100));
  const third = await stream({ key: keys.tight });
  assert.equal(third.messages[0].type, 'welcome', 'the place was given back');
  third.close();
  await third.closed;
});

test("a plan's subscriptions per connection: a bars symbol counts 1, '*' 100; past the limit too_many_subscriptions, nothing changed", async () => {
  const c = await stream({ key: keys.tight });
  const five = ['sh600001', 'sz000002', 'sz000003', 'sz000004', 'sz000005'];
  assert.equal(
    (await ask(c, { action: 'subscribe', channel: 'bars', market: 'ashare', symbols: five })).type,
    'subscribed',
  );
  const over = await ask(c, { action: 'subscribe', channel: 'editions' });
  assert.deepEqual([over.type, over.code], ['error', 'too_many_subscriptions']);
  assert.equal(over.param, undefined);
  assert.equal(
    (await ask(c, { action: 'subscribe', channel: 'bars', market: 'ashare', symbols: ['sz000003'] })).type,
    'subscribed',
    'a symbol held already counts once',
  );
  await ask(c, { action: 'unsubscribe', channel: 'bars', market: 'ashare', symbols: ['sz000005'] });
  assert.equal((await ask(c, { action: 'subscribe', channel: 'editions' })).type, 'subscribed', 'room again');
  const star = await ask(c, { action: 'subscribe', channel: 'bars', market: 'hkstock', symbols: '*' });
  assert.deepEqual([star.type, star.code], ['error', 'too_many_subscriptions']);
  c.close();
  await c.closed;
});

test('every client message takes a token: an empty bucket is an error rate_limited, the message ignored; the upgrade takes one too (429)', async () => {
  const c = await stream({ key: keys.slow }); // the upgrade took 1 of 3
  const replies: Message[] = [];
  for (const channel of ['editions', 'editions', 'editions'])
    replies.push(await ask(c, { action: 'subscribe', channel }));
  assert.deepEqual(
    replies.map((m) => m.type),
    ['subscribed', 'subscribed', 'error'],
  );
  assert.equal(replies[2].code, 'rate_limited');
  assert.deepEqual(replies[2].request, { action: 'subscribe', channel: 'editions' });
  const refused = await openStream(server.port, { key: keys.slow }).then(
    () => assert.fail('upgraded'),
    (e: unknown) => e as UpgradeRefused,
  );
  assert.equal(refused.status, 429);
  assert.equal(refused.body.code, 'rate_limited');
  assert.ok(Number(refused.headers['retry-after']) >= 1);
  assert.equal(refused.headers['x-ratelimit-remaining'], '0');
  c.close();
});

/** What the editions test keeps between the steps of one edition after another. */
let watcher: StreamClient;
let pageA: Message;

test('at subscribe, a screen sends its page as GET /screen answers it, entered = the whole page; its rows are charged to the key', async () => {
  watcher = await stream({ key: keys.enterprise });
  const usedBefore = await usedToday(keys.enterprise);
  for (const [channel, fields] of [
    ['editions', {}],
    ['bars', { market: 'ashare', symbols: ['sh600001', 'SZ000002', '000005.SZ', 'sz000004'] }],
    ['bars', { market: 'hkstock', symbols: '*' }],
    ['screen', { market: 'ashare', id: 'movers', query: { sort: 'change_percent', order: 'desc', limit: 3 } }],
    ['screen', { market: 'ashare', id: 'all', query: { sort: 'close', order: 'asc', limit: '20', fields: '*' } }],
  ] as const)
    assert.equal((await ask(watcher, { action: 'subscribe', channel, ...fields })).type, 'subscribed');
  pageA = await watcher.waitFor((m) => m.type === 'screen' && m.id === 'movers');
  const rest = (await get('/api/v1/ashare/screen?sort=change_percent&order=desc&limit=3')).body;
  assert.deepEqual(pageA.data, rest.data);
  assert.equal(pageA.total, rest.total);
  assert.equal(pageA.data_version, versions[0]);
  assert.deepEqual(
    pageA.entered,
    rest.data.map((r: Message) => r.symbol),
  );
  assert.deepEqual(pageA.exited, []);
  const all = await watcher.waitFor((m) => m.type === 'screen' && m.id === 'all');
  assert.deepEqual(all.data, (await get('/api/v1/ashare/screen?sort=close&order=asc&limit=20&fields=*')).body.data);
  assert.equal(await usedToday(keys.enterprise), usedBefore + pageA.data.length + all.data.length, 'the pages charged');
});

test('a SIGHUP onto new days: edition, then bars equal to the batch K-lines of those days, then each page equal to GET /screen with entered/exited; charged', async () => {
  const from = watcher.messages.length;
  const usedBefore = await usedToday(keys.enterprise);
  const version = await reloadOnto(folders.B);
  const edition = await watcher.waitFor((m) => m.type === 'edition', 5000, from);
  assert.deepEqual(edition, {
    type: 'edition',
    data_version: version,
    previous: versions[0],
    // B also corrects a row of 2025-03-14 (sz000003's close): its history changed, its row is not "added".
    markets: [{ market: 'ashare', rows_added: 5, last_date: '2025-03-18', history_changed: true }],
  });
  const bars = await watcher.waitFor((m) => m.type === 'bars', 5000, from);
  const rest = (
    await get('/api/v1/ashare/klines?symbols=sh600001,sz000002,sz000005,sz000004&start=2025-03-17&fields=*')
  ).body;
  assert.deepEqual(bars, {
    type: 'bars',
    market: 'ashare',
    data_version: version,
    data: rest.data,
    factor_changed: ['sz000002'],
  });
  assert.deepEqual(bars.data.sz000004, [], 'a listed symbol without a row those days: an empty array');
  assert.equal(Object.values(bars.data).flat().length, 4);
  const movers = await watcher.waitFor((m) => m.type === 'screen' && m.id === 'movers', 5000, from);
  const restPage = (await get('/api/v1/ashare/screen?sort=change_percent&order=desc&limit=3')).body;
  assert.deepEqual(movers.data, restPage.data);
  assert.equal(movers.data_version, version);
  const [was, is] = [pageA.data.map((r: Message) => r.symbol), movers.data.map((r: Message) => r.symbol)];
  assert.deepEqual(
    movers.entered,
    is.filter((s: string) => !was.includes(s)),
  );
  assert.deepEqual(
    movers.exited,
    was.filter((s: string) => !is.includes(s)),
  );
  assert.deepEqual([movers.entered, movers.exited], [['sz000002'], ['sh600001']], 'sz000002 rose into the movers');
  const all = await watcher.waitFor((m) => m.type === 'screen' && m.id === 'all', 5000, from);
  await new Promise((r) => setTimeout(r, 300)); // nothing else comes
  const types = watcher.messages.slice(from).map((m) => `${m.type}${m.id ? `:${m.id}` : ''}`);
  assert.deepEqual(types.slice(0, 2), ['edition', 'bars']);
  assert.deepEqual(types.slice(2).sort(), ['screen:all', 'screen:movers'], 'hkstock did not change: no bars for it');
  assert.equal(
    await usedToday(keys.enterprise),
    usedBefore + 4 + movers.data.length + all.data.length,
    'bars and pages charged',
  );
  assert.equal(watcher.ws.readyState, watcher.ws.OPEN, 'a reload never closes a socket');
});

test("bars '*': every symbol with rows those days, each equal to the batch K-lines; factor_changed lists the moved factor", async () => {
  const star = await stream({ key: keys.internal });
  await ask(star, { action: 'subscribe', channel: 'bars', market: 'ashare', symbols: '*' });
  const from = star.messages.length;
  const version = await reloadOnto(folders.C);
  const bars = await star.waitFor((m) => m.type === 'bars', 5000, from);
  assert.equal(bars.data_version, version);
  assert.deepEqual(Object.keys(bars.data), ['sh600001']);
  assert.deepEqual(
    bars.data,
    (await get('/api/v1/ashare/klines?symbols=sh600001&start=2025-03-19&fields=*')).body.data,
  );
  assert.deepEqual(bars.factor_changed, []);
  star.close();
});

test('no rows left today: one quota_exhausted per subscription, its data messages stop, the socket stays open', async () => {
  await reloadOnto(folders.B); // back to B: the next step adds C and D's days again
  const c = await stream({ key: keys.tight }); // 5 rows a day
  await ask(c, { action: 'subscribe', channel: 'editions' });
  await ask(c, { action: 'subscribe', channel: 'bars', market: 'ashare', symbols: ['sh600001', 'sz000005'] });
  await ask(c, { action: 'subscribe', channel: 'screen', market: 'ashare', id: 'top', query: { limit: 3 } });
  await c.waitFor((m) => m.type === 'screen');
  assert.equal(await usedToday(keys.tight), 3, 'the first page: 3 of 5 rows');
  let from = c.messages.length;
  await reloadOnto(folders.D); // adds 3 rows of these symbols (2025-03-19 and -20)
  await c.waitFor((m) => m.type === 'bars', 5000, from); // 2 rows were left: sent, charged
  const stopped = await c.waitFor((m) => m.type === 'error', 5000, from);
  assert.deepEqual(stopped.code, 'quota_exhausted');
  assert.deepEqual(stopped.request, {
    action: 'subscribe',
    channel: 'screen',
    market: 'ashare',
    id: 'top',
    query: { limit: 3 },
  });
  assert.equal(await usedToday(keys.tight), 6);
  from = c.messages.length;
  await reloadOnto(folders.B); // an edition again (nothing added: no bars, the screen re-run)
  await reloadOnto(folders.C); // a day added again
  await c.waitFor((m) => m.type === 'edition' && m.data_version === versions.at(-1), 5000, from);
  await new Promise((r) => setTimeout(r, 500));
  const after = c.messages.slice(from);
  assert.deepEqual(
    after.map((m) => (m.type === 'error' ? `error:${m.code}:${m.request.channel}` : m.type)),
    ['edition', 'edition', 'error:quota_exhausted:bars'],
    'editions still come (they charge nothing); the bars stop with one error, the screen sends nothing more',
  );
  assert.equal(await usedToday(keys.tight), 6, 'nothing more charged');
  assert.equal(c.ws.readyState, c.ws.OPEN);
  c.close();
});

test("a disabled key's sockets are closed 4001 within a second; a rotated key's too; other keys' stay", async () => {
  const a = await stream({ key: keys.solo });
  const other = await stream({ key: keys.solo2 });
  let started = performance.now();
  keysCommand('disable', keys.solo.split('_')[1]);
  assert.deepEqual(await a.closed, { code: 4001, reason: 'unauthorized' });
  const disabledMs = performance.now() - started;
  const b = await stream({ key: keys.solo2 });
  started = performance.now();
  keysCommand('rotate', keys.solo2.split('_')[1]);
  assert.deepEqual(await b.closed, { code: 4001, reason: 'unauthorized' });
  assert.deepEqual(await other.closed, { code: 4001, reason: 'unauthorized' });
  const rotatedMs = performance.now() - started;
  console.log(
    `# closed 4001 ${Math.round(disabledMs)} ms after the keys command disabled the key, ${Math.round(rotatedMs)} ms after it rotated one`,
  );
  // The server reads the key store once a second: the close comes within that second (plus the command's own exit).
  assert.ok(disabledMs < 1800 && rotatedMs < 1800, `${disabledMs} ${rotatedMs}`);
  const kept = clients.find((c) => c === watcher)!;
  assert.equal(kept.ws.readyState, kept.ws.OPEN);
});

test('/metrics counts connections, subscriptions by channel, messages and bytes; /api/v1/asyncapi.json needs no key', async () => {
  const metrics = (await httpRequest(server.port, '/metrics')).text;
  const value = (line: string): number =>
    Number(new RegExp(`^${line.replace(/[{}"]/g, '\\$&')} (\\S+)$`, 'm').exec(metrics)?.[1]);
  assert.ok(value('mdq_stream_connections') >= 1, metrics);
  assert.ok(value('mdq_stream_subscriptions{channel="screen"}') >= 2);
  assert.ok(value('mdq_stream_subscriptions{channel="editions"}') >= 1);
  assert.ok(value('mdq_stream_subscriptions{channel="bars"}') >= 100, 'the hkstock "*" counts 100');
  assert.ok(value('mdq_stream_messages_total') > 20);
  assert.ok(value('mdq_stream_sent_bytes_total') > 2000);
  assert.equal(value('mdq_stream_backpressure_closes_total'), 0);
  const doc = await httpRequest(server.port, '/api/v1/asyncapi.json');
  assert.equal(doc.status, 200);
  assert.equal(doc.body.asyncapi, '3.0.0');
  assert.match(
    doc.body.info.description,
    /\| tight \| 1 \| 5 \| 5 \| 600 \|/,
    'the plans in force, PLANS_FILE included',
  );
});

test('every message any socket of this file received is one of the declared server messages, as its schema says', () => {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validators = Object.fromEntries(
    Object.entries(SERVER_MESSAGES).map(([name, schema]) => [name, ajv.compile(schema)]),
  );
  let checked = 0;
  for (const c of clients)
    for (const m of c.messages) {
      const validate = validators[m.type];
      assert.ok(validate !== undefined, `a declared type: ${m.type}`);
      assert.ok(validate(m), `${JSON.stringify(m).slice(0, 300)}: ${ajv.errorsText(validate.errors)}`);
      assert.equal(Object.keys(m as object)[0], 'type', 'type first');
      checked++;
    }
  assert.ok(checked > 50, `${checked} messages checked`);
});
