// Fuzzes a THREADS=2 server over raw sockets on every path the main thread answers for the other
// serving threads (/metrics, /dashboard, /admin) and the API beside them: any method, any text in
// the path, the query and the header fields (UTF-8, bytes over 0x7F, DEL, tab), any body. Each
// request must get a whole answer below 500 on whichever thread it reaches, and the process must
// live through all of them. FUZZ_RUNS sets the number of requests (default 400).

import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { FIXTURE, httpRequest } from '../helpers/api-server.js';
import { type ServerProcess, startServerProcess } from '../helpers/server-process.js';
import { tempDir } from '../helpers/snapshot-folder.js';
import { codePoint, runs } from './kit.js';

const RUNS = Number(process.env.FUZZ_RUNS ?? 400);
const PREFIXES = [
  '/metrics',
  '/metrics/',
  '/dashboard',
  '/dashboard/',
  '/dashboard/app.js',
  '/admin',
  '/admin/',
  '/admin/api/',
  '/admin/api/keys/',
  '/admin/api/sign-in',
  '/admin/api/session',
  '/api/v1/markets',
  '/api/v1/ashare/klines/',
  '/healthz',
  '/',
];
const METHODS = ['GET', 'GET', 'GET', 'HEAD', 'POST', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'];
const FIELD_NAMES = [
  'cookie',
  'origin',
  'x-csrf-token',
  'content-type',
  'accept',
  'accept-encoding',
  'x-request-id',
  'if-none-match',
  'x-foo',
  'authorization',
];

/** Text uWS reads in a request target: no space, no control byte (those it never answers), no '#'. */
const targetChar = codePoint.filter((c) => c.codePointAt(0)! > 0x20 && c !== '\u007f' && c !== '#');
/** Text of a field value: anything but control characters other than tab (uWS never answers those), DEL included. */
const valueChar = fc.oneof(
  codePoint.filter((c) => c.codePointAt(0)! >= 0x20 || c === '\t'),
  fc.constantFrom('\u007f', '\t', 'é', '中'),
);

const request = fc.record({
  method: fc.constantFrom(...METHODS),
  prefix: fc.constantFrom(...PREFIXES),
  path: fc.string({ unit: targetChar, maxLength: 12 }),
  query: fc.option(fc.string({ unit: targetChar, maxLength: 24 }), { nil: null }),
  fields: fc.array(fc.tuple(fc.constantFrom(...FIELD_NAMES), fc.string({ unit: valueChar, maxLength: 40 })), {
    maxLength: 3,
  }),
  /** Bytes, or the length of a body of 'a's over the dashboard's 16 KiB limit. */
  body: fc.oneof(
    { weight: 4, arbitrary: fc.uint8Array({ maxLength: 300 }) },
    { weight: 1, arbitrary: fc.integer({ min: 16_000, max: 20_000 }) },
  ),
});
type Request = typeof request extends fc.Arbitrary<infer R> ? R : never;

function bytesOf(r: Request, key: string): Buffer {
  const target = `${r.prefix}${r.path}${r.query === null ? '' : `?${r.query}`}`;
  let head = `${r.method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n`;
  if (r.prefix.startsWith('/api/')) head += `X-API-Key: ${key}\r\n`;
  for (const [name, value] of r.fields) head += `${name}: ${value}\r\n`;
  const withBody = r.method === 'POST' || r.method === 'PUT' || r.method === 'PATCH';
  const body = !withBody
    ? Buffer.alloc(0)
    : typeof r.body === 'number'
      ? Buffer.alloc(r.body, 'a')
      : Buffer.from(r.body);
  if (withBody) head += `Content-Length: ${body.length}\r\n`;
  return Buffer.concat([Buffer.from(`${head}\r\n`, 'utf8'), body]);
}

/** The status of the answer to `bytes` (for HEAD, from its head alone), or what happened instead. */
function statusOf(port: number, bytes: Buffer, headOnly: boolean): Promise<number | 'closed' | 'silent'> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let got = Buffer.alloc(0);
    const done = (outcome: number | 'closed' | 'silent'): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const timer = setTimeout(() => done('silent'), 5_000);
    socket.on('data', (chunk: Buffer) => {
      got = Buffer.concat([got, chunk]);
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(got.toString('latin1'))?.[1] ?? 0);
      const length = /\r\ncontent-length: (\d+)/i.exec(got.subarray(0, end).toString('latin1'));
      if (headOnly || status === 204 || (length !== null && got.length >= end + 4 + Number(length[1]))) done(status);
    });
    socket.on('close', () => done('closed'));
    socket.on('error', () => done('closed'));
    socket.on('connect', () => socket.write(bytes));
  });
}

let dir: Awaited<ReturnType<typeof tempDir>>;
let server: ServerProcess;
before(async () => {
  dir = await tempDir('mdq-fuzz-threads-');
  server = await startServerProcess({ snapshot: FIXTURE, state: dir.path, env: { THREADS: '2' } });
});
after(async () => {
  await server?.kill();
  await dir?.cleanup();
});

test(`${RUNS} arbitrary requests on the forwarded paths and the API of a THREADS=2 server: each answered below 500, the process alive`, async () => {
  const seen = new Map<string, number>();
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const outcome = await statusOf(server.port, bytesOf(r, server.keys.internal!), r.method === 'HEAD');
      seen.set(String(outcome), (seen.get(String(outcome)) ?? 0) + 1);
      assert.ok(
        typeof outcome === 'number' && outcome >= 200 && outcome < 500,
        `${r.method} ${r.prefix}${r.path}: ${outcome}`,
      );
    }),
    runs(RUNS),
  );
  assert.equal((await httpRequest(server.port, '/readyz')).status, 200, 'still serving');
  assert.equal(
    server.log.some((l) => /"level":60|serving thread \d failed/.test(l)),
    false,
    'no thread failed',
  );
  console.log(`# outcomes: ${JSON.stringify(Object.fromEntries(seen))}`);
});
