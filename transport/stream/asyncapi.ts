// The AsyncAPI 3 document of /api/v1/stream (GET /api/v1/asyncapi.json), made from the protocol's
// own declarations (protocol.ts) and the plans in force: messages, limits and close codes cannot drift.

import type { Plans } from '../../engine/plans.js';
import { BARS_ALL_WEIGHT } from '../../engine/plans.js';
import type { Schema } from '../schemas/common.js';
import {
  AUTH_WITHIN_MS,
  CLIENT_MESSAGES,
  CLOSE,
  clientMessageSchema,
  DEFAULT_IDLE_SECONDS,
  ERROR_CODES,
  MAX_AWAITING_AUTH,
  MAX_BUFFERED_MESSAGE_BYTES,
  MAX_CLIENT_MESSAGE_BYTES,
  MAX_UNSENT_BYTES,
  SERVER_MESSAGES,
  type ServerMessageName,
  STREAM_PATH,
  STREAM_QUERY,
} from './protocol.js';

const MIB = 1024 * 1024;
const figure = (n: number | null): string => (n === null ? 'unlimited' : n.toLocaleString('en-US'));

const SERVER_SUMMARIES: Record<ServerMessageName, string> = {
  welcome: 'The key was accepted: the data version served, the plan and its stream limits.',
  subscribed: 'A subscription was taken (the request echoed).',
  unsubscribed: 'A subscription was left (the request echoed).',
  error: 'A client message was refused, or a subscription stopped sending (quota).',
  edition: 'A new edition is served.',
  bars: "The rows of the days a new edition added, for a bars subscription's symbols.",
  screen: "A standing screen's page (at subscribe, then per edition) with what entered and exited it.",
};

/** The protocol's rules in words: auth, limits per plan, charges, closes. */
function description(plans: Plans): string {
  const rows = plans.list.map(
    (p) =>
      `| ${p.name} | ${figure(p.connections)} | ${figure(p.subscriptions)} | ${figure(p.dailyQuota)} | ${figure(p.rpm)} |`,
  );
  return [
    `Push over WebSocket at \`${STREAM_PATH}\` on the API's port: new editions, the rows each edition adds, and standing screens re-run on every edition.`,
    '',
    `**Auth.** The key in the upgrade (\`X-API-Key\` or \`Authorization: Bearer\`; a bad one: the upgrade is answered 401 problem+json, an empty bucket 429), or, for browsers, a first message \`{"action":"auth","key":"mdq_…"}\` within ${AUTH_WITHIN_MS / 1000} s (a bad or missing key: close ${CLOSE.unauthorized.code} \`${CLOSE.unauthorized.reason}\`).`,
    '',
    `**Frames.** Client messages are JSON text frames of at most ${MAX_CLIENT_MESSAGE_BYTES / 1024} KiB (larger: the connection is closed ${CLOSE.tooBig.code} \`${CLOSE.tooBig.reason}\`; over ${MAX_BUFFERED_MESSAGE_BYTES / 1024} KiB, at once, without a close frame). Server messages are one JSON object per text frame, \`type\` first; with \`?format=msgpack\` each is a msgpack binary frame holding the same value.`,
    '',
    '**Limits per plan** (a `bars` subscription counts one per symbol, `"*"` counts ' +
      `${BARS_ALL_WEIGHT}; editions and a screen count one). A connection over the key's limit is closed ${CLOSE.tooManyConnections.code} \`${CLOSE.tooManyConnections.reason}\`; a subscription over the connection's limit is an \`error\` \`too_many_subscriptions\`. Every client message takes one token from the key's bucket (empty: an \`error\` \`rate_limited\`, the message ignored).`,
    '',
    '| plan | connections per key | subscriptions per connection | rows a day | requests a minute |',
    '| --- | --- | --- | --- | --- |',
    ...rows,
    '',
    "**Charges.** The rows of `bars` and `screen` messages count against the key's daily quota like REST rows; `welcome`, `edition`, `subscribed`, `unsubscribed` and `error` charge nothing. With no rows left: one `error` `quota_exhausted` per subscription, whose data messages stop until the quota day resets; the socket stays open.",
    '',
    `**Closes.** ${CLOSE.backpressure.code} \`${CLOSE.backpressure.reason}\`: more than ${MAX_UNSENT_BYTES / MIB} MiB unsent when a message is due (read faster). ${CLOSE.goingAway.code} \`${CLOSE.goingAway.reason}\`: the server is stopping. ${CLOSE.unauthorized.code}: the key was disabled or rotated. ${CLOSE.authBusy.code} \`${CLOSE.authBusy.reason}\`: ${MAX_AWAITING_AUTH} sockets of the serving thread wait for their \`auth\` message already (try again later). A socket silent for ${DEFAULT_IDLE_SECONDS} s is closed as dead (the server pings live ones; any WebSocket client answers pings). A reload never closes a socket.`,
    '',
    `\`error\` codes: ${ERROR_CODES.map((c) => `\`${c}\``).join(', ')}.`,
  ].join('\n');
}

const ref = (path: string): { $ref: string } => ({ $ref: path });

/** The AsyncAPI 3.0 document of the stream under the plans in force, for service `version`. */
export function buildAsyncApi(plans: Plans, version: string): Record<string, unknown> {
  const messages: Record<string, unknown> = {};
  const operations: Record<string, unknown> = {};
  const channelMessages: Record<string, unknown> = {};
  for (const spec of CLIENT_MESSAGES) {
    const name = `client_${spec.name}`;
    messages[name] = {
      name,
      title: `${spec.actions.join(' / ')}${spec.channel === null ? '' : ` ${spec.channel}`}`,
      summary: spec.summary,
      contentType: 'application/json',
      payload: clientMessageSchema(spec),
    };
    channelMessages[name] = ref(`#/components/messages/${name}`);
    operations[`receive_${spec.name}`] = {
      action: 'receive',
      channel: ref('#/channels/stream'),
      summary: spec.summary,
      messages: [ref(`#/channels/stream/messages/${name}`)],
    };
  }
  for (const [name, schema] of Object.entries(SERVER_MESSAGES) as [ServerMessageName, Schema][]) {
    messages[name] = {
      name,
      title: name,
      summary: SERVER_SUMMARIES[name],
      contentType: 'application/json',
      payload: schema,
    };
    channelMessages[name] = ref(`#/components/messages/${name}`);
    operations[`send_${name}`] = {
      action: 'send',
      channel: ref('#/channels/stream'),
      summary: SERVER_SUMMARIES[name],
      messages: [ref(`#/channels/stream/messages/${name}`)],
    };
  }
  return {
    asyncapi: '3.0.0',
    info: {
      title: 'Market data query service: push over WebSocket',
      version,
      description: description(plans),
    },
    defaultContentType: 'application/json',
    servers: {
      api: {
        host: '{host}',
        protocol: 'ws',
        description: 'The API server itself (wss behind a TLS proxy).',
        variables: { host: { default: '127.0.0.1:8080', description: 'The host and port the API is served on.' } },
        security: [ref('#/components/securitySchemes/apiKey'), ref('#/components/securitySchemes/bearer')],
      },
    },
    channels: {
      stream: {
        address: STREAM_PATH,
        title: 'The stream',
        description: 'One WebSocket: client messages subscribe and leave, server messages push.',
        servers: [ref('#/servers/api')],
        messages: channelMessages,
        bindings: {
          ws: {
            method: 'GET',
            query: {
              type: 'object',
              properties: { format: { ...STREAM_QUERY.format.schema, description: STREAM_QUERY.format.doc } },
              additionalProperties: false,
            },
            headers: {
              type: 'object',
              properties: {
                'X-API-Key': { type: 'string', description: 'The API key (or send it in the first message: `auth`).' },
                Authorization: { type: 'string', description: '`Bearer mdq_…`: the API key as a bearer token.' },
              },
            },
            bindingVersion: '0.1.0',
          },
        },
      },
    },
    operations,
    components: {
      messages,
      securitySchemes: {
        apiKey: { type: 'httpApiKey', name: 'X-API-Key', in: 'header', description: 'The API key.' },
        bearer: { type: 'http', scheme: 'bearer', description: 'The API key as a bearer token.' },
      },
    },
  };
}
