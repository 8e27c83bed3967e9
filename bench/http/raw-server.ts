// The ceiling: a bare uWS server answering every GET with one pre-made answer: `--body-file F` (with the headers of
// `--headers-file H`, a JSON list of [name, value] pairs, else a JSON content type) or `--body-size N`.

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
if ((values['body-file'] === undefined) === (values['body-size'] === undefined))
  throw new Error('give exactly one of --body-file F or --body-size N');
if (values['headers-file'] !== undefined && values['body-file'] === undefined)
  throw new Error('--headers-file goes with --body-file');
// A Buffer, not a string: uWS copies it without a UTF-8 encode, which is the fastest a handler can answer.
const body =
  values['body-file'] !== undefined ? readFileSync(values['body-file']) : paddedJson(Number(values['body-size']));
const headers = headersOf(values['headers-file']);

assertNativeUws(); // a ceiling measured on the JS fallback would be meaningless
silenceVersionMark(); // the same bytes as the service's answers
const app = uWS.App();
app.get('/*', (res) => {
  // Synchronous handler: uWS corks status, headers and body into one write by itself.
  for (const [name, value] of headers) res.writeHeader(name, value);
  res.end(body);
});

let listenSocket: us_listen_socket | null = null;
app.listen(values.host, port, (token) => {
  if (!token) {
    console.error(`raw-server: cannot listen on ${values.host}:${port}`);
    process.exit(1);
  }
  listenSocket = token;
  console.log(
    `raw-server listening on ${uWS.us_socket_local_port(token)} (${body.length} byte body, ${headers.length} header(s))`,
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
