// The stream protocol's declarations: the parser takes exactly the declared client messages (what
// their schemas accept, it accepts), a refusal names its field; the AsyncAPI document is valid
// AsyncAPI 3.0 (the specification's own JSON Schema) and lists every declared message; a page
// spliced into several frames equals the message encoded whole.

import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { unpack } from 'msgpackr';
import { Plans, DEFAULT_PLANS } from '../../../engine/plans.js';
import { Problem } from '../../../transport/problem.js';
import { buildAsyncApi } from '../../../transport/stream/asyncapi.js';
import { BadMessage, parseClientMessage } from '../../../transport/stream/client-message.js';
import { encoded, SharedPart, withData } from '../../../transport/stream/encode.js';
import { CLIENT_MESSAGES, clientMessageSchema, SERVER_MESSAGES } from '../../../transport/stream/protocol.js';
import { runs } from '../../fuzz/kit.js';

const require = createRequire(import.meta.url);

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const clientSchemas = CLIENT_MESSAGES.map((spec) => ({ spec, validate: ajv.compile(clientMessageSchema(spec)) }));

const refusal = (text: string): BadMessage => {
  try {
    parseClientMessage(text);
  } catch (error) {
    assert.ok(error instanceof BadMessage);
    return error;
  }
  assert.fail(`accepted ${text}`);
};

test('each declared client message parses, with its fields read', () => {
  const m = parseClientMessage(
    JSON.stringify({
      action: 'subscribe',
      channel: 'screen',
      market: 'ashare',
      id: 'a',
      query: { limit: 5, sort: 'close' },
    }),
  );
  assert.equal(m.spec.name, 'screenSubscribe');
  assert.deepEqual(
    [...m.query!],
    [
      ['limit', '5'],
      ['sort', 'close'],
    ],
  );
  assert.deepEqual(parseClientMessage('{"action":"auth","key":"mdq_x"}').key, 'mdq_x');
  assert.equal(
    parseClientMessage('{"action":"subscribe","channel":"bars","market":"ashare","symbols":"*"}').symbols,
    '*',
  );
  assert.deepEqual(
    parseClientMessage('{"action":"unsubscribe","channel":"bars","market":"ashare","symbols":[" sh600001 "]}').symbols,
    ['sh600001'],
  );
  assert.equal(
    parseClientMessage('{"action":"unsubscribe","channel":"screen","id":"a"}').spec.name,
    'screenUnsubscribe',
  );
});

test('refusals name the field at fault, as invalid_parameter, and keep the request when it was an object', () => {
  const cases: [string, string, boolean][] = [
    ['nope', 'message', false],
    ['{"action":"subscribe","channel":"bars","market":"ashare","symbols":" * "}', 'symbols', true],
    ['"text"', 'message', false],
    ['{"action":"subscribe","channel":"editions","__proto__":1}', '__proto__', true],
    ['{"action":"subscribe","channel":"screen","market":"ashare","id":"a","query":{"limit":null}}', 'limit', true],
    ['{"action":"subscribe","channel":"screen","market":"ashare","id":"a","query":{"limit":1e999}}', 'limit', true],
    ['{"action":"auth"}', 'key', true],
    ['{"action":"auth","channel":"editions","key":"k"}', 'channel', true],
    ['{"action":"unsubscribe","channel":"screen","market":"ashare"}', 'id', true],
  ];
  for (const [text, param, kept] of cases) {
    const error = refusal(text);
    assert.ok(error.problem instanceof Problem);
    assert.deepEqual([error.problem.code, error.problem.param], ['invalid_parameter', param], text);
    assert.equal(error.request !== null, kept, text);
  }
});

/** Objects made of the declared fields' names and values of the right and wrong kinds. */
const candidate = fc.record(
  {
    action: fc.constantFrom('auth', 'subscribe', 'unsubscribe', 'dance', 1),
    channel: fc.constantFrom('editions', 'bars', 'screen', 'x'),
    key: fc.oneof(fc.string({ maxLength: 300 }), fc.integer()),
    market: fc.constantFrom('ashare', 'usstock', 'mars', 5),
    symbols: fc.oneof(fc.constant('*'), fc.array(fc.string({ maxLength: 8 }), { maxLength: 4 }), fc.integer()),
    id: fc.oneof(fc.string({ maxLength: 70 }), fc.constant(null)),
    query: fc.oneof(
      fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 4 }), fc.integer(), fc.boolean())),
      fc.string(),
    ),
    extra: fc.string(),
  },
  { requiredKeys: [] },
);

test('what a declared schema accepts, the parser accepts as that message; what the parser refuses, no schema accepts', () => {
  fc.assert(
    fc.property(candidate, (value) => {
      const text = JSON.stringify(value);
      const schema = clientSchemas.find((s) => s.validate(value));
      let parsed: ReturnType<typeof parseClientMessage> | null = null;
      try {
        parsed = parseClientMessage(text);
      } catch (error) {
        assert.ok(error instanceof BadMessage, String(error));
      }
      if (schema !== undefined) assert.equal(parsed?.spec.name, schema.spec.name, text);
      if (parsed === null) assert.equal(schema, undefined, text);
    }),
    runs(2000),
  );
});

test('the AsyncAPI document is valid AsyncAPI 3.0.0 (its published JSON Schema) and lists every declared message with an operation', () => {
  const specs = require('@asyncapi/specs') as { schemas: Record<string, object> };
  // The specification's schema carries its own copy of the draft-07 meta-schema: ajv's must not be added beside it.
  const validator = new Ajv({
    strict: false,
    allErrors: true,
    validateFormats: false,
    meta: false,
    validateSchema: false,
  });
  const validate = validator.compile(specs.schemas['3.0.0']);
  const plans = new Plans([
    ...DEFAULT_PLANS.list,
    {
      name: 'gold',
      rpm: 5,
      dailyQuota: 20,
      batch: 2,
      rowsPerCall: 3,
      exportRows: 0,
      connections: 7,
      subscriptions: 70,
    },
  ]);
  const doc = buildAsyncApi(plans, '1.2.3');
  assert.ok(validate(doc), validator.errorsText(validate.errors));
  const messages = (doc.components as { messages: Record<string, { payload: unknown }> }).messages;
  for (const name of Object.keys(SERVER_MESSAGES))
    assert.deepEqual(messages[name].payload, SERVER_MESSAGES[name as keyof typeof SERVER_MESSAGES]);
  for (const spec of CLIENT_MESSAGES)
    assert.deepEqual(messages[`client_${spec.name}`].payload, clientMessageSchema(spec));
  const operations = Object.values(doc.operations as Record<string, { action: string }>);
  assert.equal(operations.filter((o) => o.action === 'send').length, Object.keys(SERVER_MESSAGES).length);
  assert.equal(operations.filter((o) => o.action === 'receive').length, CLIENT_MESSAGES.length);
  const info = doc.info as { version: string; description: string };
  assert.equal(info.version, '1.2.3');
  assert.match(info.description, /\| free \| 1 \| 5 \| 5,000 \| 30 \|/);
  assert.match(info.description, /\| internal \| unlimited \| unlimited \| unlimited \| unlimited \|/);
  assert.match(info.description, /\| gold \| 7 \| 70 \| 20 \| 5 \|/);
});

test('a shared page spliced into a frame equals the message encoded whole, in JSON and msgpack', () => {
  fc.assert(
    fc.property(
      fc.string(),
      fc.array(
        fc.dictionary(
          fc.string(),
          fc.oneof(fc.string(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(null)),
        ),
      ),
      fc.array(fc.string(), { maxLength: 5 }),
      (id, data, entered) => {
        const head = {
          type: 'screen',
          id,
          market: 'ashare',
          data_version: 'v',
          total: data.length,
          entered,
          exited: [],
        };
        const part = new SharedPart(data);
        const json = withData('json', head, part) as string;
        assert.deepEqual(JSON.parse(json), JSON.parse(encoded('json', { ...head, data }) as string));
        assert.deepEqual(
          unpack(withData('msgpack', head, part) as Buffer),
          unpack(encoded('msgpack', { ...head, data }) as Buffer),
        );
        assert.deepEqual(Object.keys(JSON.parse(json)), [...Object.keys(head), 'data'], 'data last, type first');
      },
    ),
    runs(300),
  );
});
