// The ceiling: a bare uWS server answering every GET with one pre-serialised JSON body (`--body-file F` or `--body-size N`).

import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import uWS, { type us_listen_socket } from 'uWebSockets.js';
import { assertNativeUws } from '../../transport/server.js';

const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '0' },
    host: { type: 'string', default: '127.0.0.1' },
    'body-file': { type: 'string' },
    'body-size': { type: 'string' },
  },
  strict: true,
});

/** A valid JSON object of exactly `size` bytes (size ≥ 10), for a ceiling by size alone. */
function paddedJson(size: number): Buffer {
  if (!Number.isInteger(size) || size < 10) throw new Error(`--body-size must be an integer ≥ 10, got ${size}`);
  return Buffer.from(`{"pad":"${'x'.repeat(size - 10)}"}`);
}

const port = Number(values.port);
if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0–65535, got ${values.port}`);
if ((values['body-file'] === undefined) === (values['body-size'] === undefined)) throw new Error('give exactly one of --body-file F or --body-size N');
// A Buffer, not a string: uWS copies it without a UTF-8 encode, which is the fastest a handler can answer.
const body = values['body-file'] !== undefined ? readFileSync(values['body-file']) : paddedJson(Number(values['body-size']));

assertNativeUws(); // a ceiling measured on the JS fallback would be meaningless
const app = uWS.App();
app.get('/*', (res) => {
  // Synchronous handler: uWS corks status, header and body into one write by itself.
  res.writeHeader('content-type', 'application/json; charset=utf-8').end(body);
});

let listenSocket: us_listen_socket | null = null;
app.listen(values.host, port, (token) => {
  if (!token) {
    console.error(`raw-server: cannot listen on ${values.host}:${port}`);
    process.exit(1);
  }
  listenSocket = token;
  console.log(`raw-server listening on ${uWS.us_socket_local_port(token)} (${body.length} byte body)`);
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
