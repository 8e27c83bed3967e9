// The Python client's push (`client.stream`) as its users install it (the README's install lines: a
// venv of Debian's python3 that sees its python3-websockets), against the real server as a process
// whose editions the test makes (a trading day appended to its snapshot folder, SIGHUP): the README's
// stream example, run as written, receives welcome, subscribed, the screen's page, the edition and the
// new day's bars (equal to GET /klines?symbols=…&start=<day>&fields=*), and its `break` closes the
// socket; a server killed and started again on the same port and state is survived (reconnected,
// subscribed again, the next edition arrives); a bad key and one connection too many raise
// StreamError with no retry; without websockets the client imports and works, and stream() says which
// package it needs. Without Debian's packages the test is skipped saying why; under CI it fails.

import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { promisify } from 'node:util';
import { type AppendedDays, appendedDays, metric, reload, until } from '../helpers/appended-days.js';
import { type PythonHome, pythonHome, pythonUnavailable } from '../helpers/python-client.js';
import { assertStreamExample } from '../helpers/stream-example.js';
import { codeBlocks } from '../helpers/readme-blocks.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';

const run = promisify(execFile);

/** Runs a script as a reader would, then prints its `messages` as JSON (the last line). */
const HARNESS = `
import json, runpy, sys
names = runpy.run_path(sys.argv[1])
print(json.dumps(names["messages"]))
`;

/** Follows a stream across a restart: each message a JSON line; stops at the first bars after a second welcome. */
const RESTART = `
import json, sys
from mdq_client import Client

welcomes = 0
for message in Client(sys.argv[1], sys.argv[2]).stream([{"channel": "editions"}, {"channel": "bars", "market": "ashare", "symbols": ["sh600001"]}]):
    print(json.dumps(message), flush=True)
    welcomes += message["type"] == "welcome"
    if welcomes == 2 and message["type"] == "bars":
        break
`;

/**
 * A bad key, then one connection more than the free plan's one: what each StreamError says. The
 * first of the two is read inside a running event loop, as in Jupyter.
 */
const REFUSED = `
import asyncio, json, sys
from mdq_client import Client, StreamError

url, bad, free, pro = sys.argv[1:]
out = {}
try:
    next(Client(url, bad).stream([{"channel": "editions"}]))
except StreamError as error:
    out["bad"] = [type(error).__name__, error.code, error.status, error.close_code]

async def in_a_running_loop():
    first = Client(url, free).stream([])
    return first, next(first)["type"]

first, out["first"] = asyncio.run(in_a_running_loop())
try:
    next(Client(url, free).stream([{"channel": "editions"}]))
except StreamError as error:
    out["over"] = [error.code, error.status, error.close_code]
first.close()
# 8,000 codes: ~100 KB, over the 64 KiB a client message may hold (closed 1009), not sent again.
codes = ["sh6%05d" % i for i in range(8000)]
big = Client(url, pro).stream([{"channel": "bars", "market": "ashare", "symbols": codes}])
out["big"] = [next(big)["type"]]  # the subscriptions go after the welcome
try:
    next(big)
except StreamError as error:
    out["big"] += [error.code, error.status, error.close_code]
print(json.dumps(out))
`;

/** Without websockets: the client imports and answers; stream() raises an ImportError naming the package. */
const WITHOUT = `
import sys
sys.modules["websockets"] = None  # as if python3-websockets were not installed
from mdq_client import Client

client = Client(sys.argv[1], sys.argv[2])
print(len(client.markets()["data"]))
try:
    client.stream([{"channel": "editions"}])
except ImportError as error:
    print(error)
`;

type Message = { type: string } & Record<string, any>;

const skip = pythonUnavailable(['venv', 'ensurepip', 'setuptools', 'wheel', 'websockets']);
if (skip !== null) {
  if (process.env.CI === 'true') test('Python stream', () => assert.fail(`${skip}; CI must run the Python client`));
  else test('Python stream', { skip }, () => {});
} else
  describe("the Python client's stream, installed as the README says", { timeout: 300_000 }, () => {
    let dir: Awaited<ReturnType<typeof tempDir>>;
    let days: AppendedDays;
    let server: ServerProcess;
    let keys: ServerProcess['keys'];
    let user: PythonHome;
    const children: ChildProcess[] = [];
    const base = (): string => `http://127.0.0.1:${server.port}`;

    before(async () => {
      dir = await tempDir('mdq-py-stream-');
      days = await appendedDays(dir.path);
      server = await startServerProcess({ snapshot: days.link, state: join(dir.path, 'state') });
      keys = server.keys;
      user = await pythonHome('mdq-py-stream-user-');
      await user.install();
      for (const [name, text] of Object.entries({ HARNESS, RESTART, REFUSED, WITHOUT }))
        await writeFile(join(user.home, `${name.toLowerCase()}.py`), text);
    });
    after(async () => {
      for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
      await server?.kill();
      await user?.cleanup();
      await dir?.cleanup();
    });

    /** Runs a script of the home with the venv's python to its end (killed after a minute); its stdout. */
    const python = (script: string, ...args: string[]): Promise<string> =>
      run(user.python, [join(user.home, script), ...args], { cwd: user.home, env: user.env, timeout: 60_000 }).then(
        (r) => r.stdout,
        (error: { stderr?: string }) => assert.fail(`${script} failed:\n${error.stderr ?? ''}`),
      );

    /** The JSON a GET of `path` answers to the internal key. */
    async function get(path: string): Promise<any> {
      const res = await fetch(`${base()}${path}`, { headers: { 'x-api-key': keys.internal! } });
      assert.equal(res.status, 200, path);
      return res.json();
    }

    test("the README's stream example, run as written: welcome, subscribed, the screen, then the new day's edition and bars as GET answers them; its break closes the socket", async () => {
      const blocks = codeBlocks('clients/python/README.md', 'python').filter((b) => b.includes('.stream('));
      assert.equal(blocks.length, 1, "the client's README shows one stream example");
      await writeFile(join(user.home, 'readme_stream.py'), blocks[0]);
      const page = await get('/api/v1/ashare/screen?max_pe_ratio=15&sort=pe_ratio&limit=5');
      const first = server.version;
      const ran = run(user.python, [join(user.home, 'harness.py'), join(user.home, 'readme_stream.py')], {
        cwd: user.home,
        env: { ...user.env, MDQ_URL: base(), MDQ_KEY: keys.pro },
        timeout: 60_000,
      });
      await until('the example subscribed to its screen (its last subscription)', async () => {
        return (await metric(server.port, 'mdq_stream_subscriptions', { channel: 'screen' })) >= 1;
      });
      const day = await days.addDay();
      const version = await reload(server);
      const { stdout } = await ran.catch((error: { stderr?: string }) =>
        assert.fail(`the example failed:\n${error.stderr ?? ''}`),
      );
      const lines = stdout.trim().split('\n');
      const messages = JSON.parse(lines.at(-1)!) as Message[];

      const rest = await get(`/api/v1/ashare/klines?symbols=sh600001,000002.SZ&start=${day}&fields=*`);
      assertStreamExample(messages, {
        first,
        version,
        day,
        page,
        bars: rest.data,
        screenQuery: { max_pe_ratio: '15', sort: 'pe_ratio', limit: '5' },
      });
      assert.ok(
        lines.some((l) => l.startsWith('sh600001 [(') && l.includes(`'${day}'`)),
        `the example printed the day's bars:\n${stdout}`,
      );
      await until(
        'the break closed the socket',
        async () => (await metric(server.port, 'mdq_stream_connections')) === 0,
      );
    });

    test('a server killed and started again on its port and state: the stream reconnects, subscribes again, and the next edition arrives', async () => {
      const child = spawn(user.python, [join(user.home, 'restart.py'), base(), keys.enterprise!], {
        cwd: user.home,
        env: user.env,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const messages: Message[] = [];
      let stderr = '';
      let rest = '';
      child.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk));
      child.stdout!.on('data', (chunk: Buffer) => {
        rest += chunk;
        for (let cut = rest.indexOf('\n'); cut >= 0; cut = rest.indexOf('\n')) {
          messages.push(JSON.parse(rest.slice(0, cut)) as Message);
          rest = rest.slice(cut + 1);
        }
      });
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      const got = (n: number) => until(`${n} messages (${stderr})`, async () => messages.length >= n, 30_000);

      await got(3);
      assert.deepEqual(
        messages.map((m) => m.type),
        ['welcome', 'subscribed', 'subscribed'],
      );
      const { port } = server;
      await server.kill(); // SIGKILL: no close frame, the socket just drops
      server = await startServerProcess({ snapshot: days.link, state: join(dir.path, 'state'), port });
      await got(6);
      assert.deepEqual(messages.slice(3), [{ ...messages[0], data_version: server.version }, messages[1], messages[2]]);
      const day = await days.addDay();
      const version = await reload(server);
      assert.equal(await Promise.race([exited, until('the exit', async () => false, 30_000)]), 0, stderr);
      const [edition, bars] = messages.slice(6);
      assert.deepEqual(
        messages.slice(6).map((m) => m.type),
        ['edition', 'bars'],
      );
      assert.equal(edition.data_version, version);
      assert.deepEqual(edition.markets, [{ market: 'ashare', rows_added: 2, last_date: day, history_changed: false }]);
      assert.deepEqual(bars, {
        type: 'bars',
        market: 'ashare',
        data_version: version,
        data: (await get(`/api/v1/ashare/klines?symbols=sh600001&start=${day}&fields=*`)).data,
        factor_changed: [],
      });
    });

    test('a bad key raises StreamError unauthorized (401), tried once; one connection over the plan raises too_many_connections (4008); a subscription over 64 KiB, message_too_big (1009)', async () => {
      const refused = () => metric(server.port, 'mdq_http_requests_total', { route: '/api/v1/stream', status: '401' });
      const before = await refused();
      const out = JSON.parse(await python('refused.py', base(), `${keys.pro}x`, keys.free!, keys.pro!));
      assert.deepEqual(out, {
        bad: ['StreamError', 'unauthorized', 401, null],
        first: 'welcome',
        over: ['too_many_connections', null, 4008],
        big: ['welcome', 'message_too_big', null, 1009],
      });
      await new Promise((r) => setTimeout(r, 1000));
      assert.equal(await refused(), before + 1, 'one upgrade asked: no retry');
      await until('every socket closed', async () => (await metric(server.port, 'mdq_stream_connections')) === 0);
    });

    test('without websockets the client imports and answers; stream() raises an ImportError naming python3-websockets', async () => {
      const [markets, error] = (await python('without.py', base(), keys.pro!)).trim().split('\n');
      assert.ok(Number(markets) >= 3, markets);
      assert.match(error, /^Client\.stream\(\) needs the websockets package: apt-get install python3-websockets/);
    });
  });
