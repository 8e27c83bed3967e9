// The HTTP bad-input corpus over raw sockets, straight to the server: an answer or a prompt close per
// case, or (where uWebSockets.js v20.30 decides) silence until its idle close, pinned so a change of
// build shows; and after every case the next connection is served.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestServer, type TestServer } from '../../helpers/api-server.js';
import { API_INPUT, type BadRequest, FRAMING } from '../../helpers/bad-requests.js';
import { assertOutcome } from '../../helpers/bad-request-outcome.js';
import { rawRequest } from '../../helpers/raw-request.js';

let api: TestServer;
before(async () => (api = await startTestServer()));
after(() => api.close());

/** Every case at once (the idle closes take ~12 s each), then a plain request on a new connection. */
async function runCorpus(cases: BadRequest[]): Promise<void> {
  const outcomes = await Promise.all(
    cases.map((c) =>
      rawRequest(api.port, [Buffer.from(c.text.replace('{key}', api.keys.pro), 'latin1')], { timeoutMs: 20_000 }),
    ),
  );
  cases.forEach((c, i) => assertOutcome(c.name, outcomes[i], c.direct));
  const next = await rawRequest(api.port, [Buffer.from('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')]);
  assert.equal(next.kind === 'answer' && next.status, 200, 'the next connection is served');
}

test('framing: two Host or Content-Length fields are a 400 malformed_request with Connection: close; what uWS refuses itself is pinned', () =>
  runCorpus(FRAMING));

test('bad input on well-framed requests: each a problem answer on a connection kept open', () => runCorpus(API_INPUT));
