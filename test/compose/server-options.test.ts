// The one composition of the server's options: every serving thread receives every server setting
// (derived from the declaration, not listed beside it), and the options follow the settings the
// same way on every thread.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { serverOptionsFrom, threadSettingsOf } from '../../compose/server-options.js';
import { DEFAULT_PLANS } from '../../engine/plans.js';
import { readSettings, type Values } from '../../loaders/config/read-settings.js';
import { SERVER, SERVER_SETTINGS } from '../../loaders/config/settings.js';
import { Guard } from '../../transport/guard/guard.js';

const read = (env: NodeJS.ProcessEnv): Values<typeof SERVER_SETTINGS> => {
  const r = readSettings(SERVER, [], env);
  assert.equal(r.help, false);
  return (r as { values: Values<typeof SERVER_SETTINGS> }).values;
};

test('a serving thread receives every server setting but the plans file (the plans cross as their own message)', () => {
  const settings = read({ PLANS_FILE: '', QUOTA_TZ: 'Asia/Shanghai', STREAM_IDLE_SECONDS: '30' });
  const posted = threadSettingsOf(settings);
  assert.deepEqual(
    Object.keys(posted).sort(),
    Object.keys(SERVER_SETTINGS)
      .filter((name) => name !== 'plansFile')
      .sort(),
  );
  assert.deepEqual(structuredClone(posted), posted, 'plain values: they cross to a worker thread as they are');
  assert.equal(posted.quotaTz, 'Asia/Shanghai');
  assert.equal(posted.streamIdleSeconds, 30);
});

test("the server's options follow the settings: caches, busy polling, the export stall, the stream's idle time, CORS", () => {
  const settings = read({
    RESPONSE_CACHE_MB: '0',
    KLINE_TEXT_CACHE_MB: '12',
    AS_OF_CACHE_MB: '3',
    BUSY_POLL_MS: '7',
    EXPORT_STALL_S: '90',
    STREAM_IDLE_SECONDS: '20',
    CORS_ORIGINS: 'https://desk.example',
    HOST: '127.0.0.1',
  });
  const guard = new Guard('UTC');
  const state = { dataset: null, draining: false };
  const options = serverOptionsFrom(threadSettingsOf(settings), { port: 0, plans: DEFAULT_PLANS, guard, state });
  assert.deepEqual(options.caches, { answers: null, renderedRowBytes: 12 * 1024 * 1024, asOfBytes: 3 * 1024 * 1024 });
  assert.deepEqual(
    [
      options.host,
      options.port,
      options.busyPollMs,
      options.exportStallMs,
      options.streamIdleSeconds,
      options.corsOrigins,
    ],
    ['127.0.0.1', 0, 7, 90_000, 20, 'https://desk.example'],
  );
  assert.equal(options.guard, guard, "the thread's own parts pass through");
  const openapi = JSON.parse((options.openapi as () => string)()) as { openapi: string };
  assert.equal(openapi.openapi, '3.1.0', 'the OpenAPI document of the plans in force');
});
