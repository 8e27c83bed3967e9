// The ceiling: a bare uWS server answering every GET with one pre-made answer: `--body-file F` (with the headers of
// `--headers-file H`, a JSON list of [name, value] pairs, else a JSON content type) or `--body-size N`; or, for many
// distinct requests, `--answers-file A` (a JSON index: per path and query its body's offset and length in the
// `bodies` file, and its headers): each request answered with its own, found by one Map lookup.

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import uWS, { type us_listen_socket } from 'uWebSockets.js';
import { assertNativeUws, silenceVersionMark } from '../../transport/server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'body-file': { type: 'string' },
    'headers-file': { type: 'string' },
    'body-size': { type: 'string' },
    'answers-file': { type: 'string' },
  },
  strict: true,
});

/** A valid JSON object of exactly `size` bytes (size ≥ 10), for a ceiling by size alone. */
function paddedJson(size: number): Buffer {
  if (!Number.isInteger(size) || size < 10) throw new Error(`--body-size must be an integer ≥ 10, got ${size}`);
  return Buffer.from(`{"pad":"${'x'.repeat(size - 10)}"}`);
}

/** The headers to send, as Buffers (uWS copies them without an encode); uWS adds Date and Content-Length itself (and no uWebSockets field, as the service sends none). */
function headersOf(file: string | undefined): [Buffer, Buffer][] {
  if (file === undefined) return [[Buffer.from('content-type'), Buffer.from('application/json; charset=utf-8')]];
  const pairs: unknown = JSON.parse(readFileSync(file, 'utf8'));
  if (
    !Array.isArray(pairs) ||
    !pairs.every((p) => Array.isArray(p) && p.length === 2 && p.every((x) => typeof x === 'string'))
  ) {
    throw new Error(`${file}: expected a JSON list of [name, value] string pairs`);
  }
  for (const [name] of pairs as [string, string][]) {
    if (/^(content-length|date|uwebsockets|connection|transfer-encoding)$/i.test(name))
      throw new Error(`${file}: ${name} is written by uWS, not replayed`);
  }
  return (pairs as [string, string][]).map(([name, value]) => [Buffer.from(name), Buffer.from(value)]);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0–65535, got ${values.port}`);
if ([values['body-file'], values['body-size'], values['answers-file']].filter((v) => v !== undefined).length !== 1)
  throw new Error('give exactly one of --body-file F, --body-size N or --answers-file A');
if (values['headers-file'] !== undefined && values['body-file'] === undefined)
  throw new Error('--headers-file goes with --body-file');
// A Buffer, not a string: uWS copies it without a UTF-8 encode, which is the fastest a handler can answer.
type Answer = { headers: [Buffer, Buffer][]; body: Buffer };

/** Each path's answer from an answers index (comparison.ts writes it from our server's answers). */
function answersOf(file: string): Map<string, Answer> {
  const index = JSON.parse(readFileSync(file, 'utf8')) as {
    bodies: string;
    entries: { path: string; offset: number; length: number; headers: [string, string][] }[];
  };
  const bodies = readFileSync(index.bodies);
  const answers = new Map<string, Answer>();
  for (const e of index.entries) {
    const headers = e.headers.map(([n, v]) => [Buffer.from(n), Buffer.from(v)] as [Buffer, Buffer]);
    answers.set(e.path, { headers, body: Buffer.from(bodies.subarray(e.offset, e.offset + e.length)) });
  }
  return answers;
}

const answers = values['answers-file'] === undefined ? null : answersOf(values['answers-file']);
const body =
  values['body-file'] !== undefined
    ? readFileSync(values['body-file'])
    : values['body-size'] !== undefined
      ? paddedJson(Number(values['body-size']))
      : Buffer.alloc(0);
const headers = answers === null ? headersOf(values['headers-file']) : [];

assertNativeUws(); // a ceiling measured on the JS fallback would be meaningless
silenceVersionMark(); // the same bytes as the service's answers
const app = uWS.App();
if (answers === null) {
  app.get('/*', (res) => {
    // Synchronous handler: uWS corks status, headers and body into one write by itself.
    for (const [name, value] of headers) res.writeHeader(name, value);
    res.end(body);
  });
} else {
  app.get('/*', (res, req) => {
    const query = req.getQuery();
    const answer = answers.get(query ? `${req.getUrl()}?${query}` : req.getUrl());
    if (answer === undefined) return void res.writeStatus('404 Not Found').end();
    for (const [name, value] of answer.headers) res.writeHeader(name, value);
    res.end(answer.body);
  });
}

let listenSocket: us_listen_socket | null = null;
app.listen(values.host, port, (token) => {
  if (!token) {
    console.error(`raw-server: cannot listen on ${values.host}:${port}`);
    process.exit(1);
  }
  listenSocket = token;
  console.log(
    `raw-server listening on ${uWS.us_socket_local_port(token)} (${answers === null ? `${body.length} byte body, ${headers.length} header(s)` : `${answers.size} answers`})`,
  );
});

function stop(): void {
  if (listenSocket !== null) uWS.us_listen_socket_close(listenSocket);
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
// Started by a harness: do not outlive it if it is killed without a chance to stop us.
const parent = process.ppid;
setInterval(() => process.ppid !== parent && stop(), 1000).unref();
