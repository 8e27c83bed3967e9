// The keys page's live streams: each key's open WebSockets of /api/v1/stream as they open and close,
// beside its plan's connections in the plans table.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { welcomed } from '../../helpers/stream-client.js';
import { idOf, startSignedIn } from './admin-server.js';

test("the keys page counts each key's open streams (beside its plan's connections) as they open and close", async (t) => {
  const { s, op } = await startSignedIn();
  t.after(() => s.close());
  const page = async () => {
    const a = await s.call('/admin/api/keys', { cookie: op.cookie });
    assert.equal(a.status, 200, a.text);
    return a.body as {
      keys: { id: string; streams: number }[];
      plans: { name: string; connections: number | null; subscriptions: number | null }[];
    };
  };
  const streamsOf = async (key: string) => (await page()).keys.find((k) => k.id === idOf(key))!.streams;
  assert.equal(await streamsOf(s.keys.pro), 0);
  const a = await welcomed(s.port, { key: s.keys.pro });
  const b = await welcomed(s.port, { key: s.keys.pro });
  const c = await welcomed(s.port, { key: s.keys.free });
  assert.equal(await streamsOf(s.keys.pro), 2);
  assert.equal(await streamsOf(s.keys.free), 1);
  assert.equal(await streamsOf(s.keys.enterprise), 0);
  a.close();
  await a.closed;
  await new Promise((r) => setTimeout(r, 50));
  assert.equal(await streamsOf(s.keys.pro), 1, 'a closed stream is no longer counted');
  const plans = (await page()).plans;
  assert.deepEqual(
    plans.map((p) => [p.name, p.connections, p.subscriptions]),
    [
      ['free', 1, 5],
      ['pro', 5, 50],
      ['enterprise', 20, 200],
      ['internal', null, null],
    ],
  );
  for (const x of [b, c]) x.close();
  await Promise.all([b.closed, c.closed]);
});
