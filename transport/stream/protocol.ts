// The push protocol over WebSocket (GET /api/v1/stream) declared once: its limits and close codes,
// each client message's fields (how each parses, and its JSON Schema) and each server message's
// JSON Schema. The parser, the hub and the AsyncAPI document all read these.

import { oneOf as oneOfParam } from '../params/declare.js';
import { type ProblemCode, badParam } from '../problem.js';
import {
  arrayOf,
  int,
  mapOf,
  nullableDate,
  nullableInt,
  nullableStr,
  object,
  type Schema,
  str,
} from '../schemas/common.js';
import { klineRow, market as marketSchema, snapshotRow } from '../schemas/rows.js';

/** Where a client upgrades to a WebSocket, on the API's port. */
export const STREAM_PATH = '/api/v1/stream';
/** The AsyncAPI document describing this protocol (no key). */
export const ASYNCAPI_PATH = '/api/v1/asyncapi.json';

/** A socket with more than this many bytes not yet sent when a message is due is closed with 1013. */
export const MAX_UNSENT_BYTES = 8 * 1024 * 1024;
/** A browser (no key in the upgrade) has this long to send its `auth` message. */
export const AUTH_WITHIN_MS = 5000;
/**
 * Sockets of one thread waiting for their `auth` message at once: one more is closed 1013 (try
 * again later). Each may hold a message coming in (MAX_BUFFERED_MESSAGE_BYTES) with no key yet:
 * this bounds what sockets nobody vouched for can take (32 MiB a thread).
 */
export const MAX_AWAITING_AUTH = 256;
/** A client message larger than this closes the connection with 1009 (message too big). */
export const MAX_CLIENT_MESSAGE_BYTES = 64 * 1024;
/**
 * The largest message uWS takes in (its maxPayloadLength): one between MAX_CLIENT_MESSAGE_BYTES and
 * this is refused with a close frame (1009) the client can read; a larger one ends the connection
 * without one. uWS holds a message coming in, up to this, per socket (one with no key yet too):
 * twice the limit is room for a client's near miss (a `bars` list of a few thousand codes).
 */
export const MAX_BUFFERED_MESSAGE_BYTES = 2 * MAX_CLIENT_MESSAGE_BYTES;
/** Symbols one `bars` message may name (the frame bound allows a few thousand anyway). */
export const MAX_BARS_SYMBOLS = 5000;
/** Longest screen `id` a client may give. */
export const MAX_SCREEN_ID = 64;
/**
 * Seconds without a frame either way before a socket is closed as dead (uWS's idleTimeout); uWS
 * pings an idle live socket before then (about every half of it here), whose pong keeps it open.
 */
export const DEFAULT_IDLE_SECONDS = 60;

/** Why the server closes a socket: the close code and the reason it sends. */
export const CLOSE = {
  /** SIGTERM: the server is draining. */
  goingAway: { code: 1001, reason: 'shutting_down' },
  /** More than MAX_UNSENT_BYTES waiting to be sent: the client reads too slowly. */
  backpressure: { code: 1013, reason: 'backpressure' },
  /** A bad or missing key (the `auth` message), none within AUTH_WITHIN_MS, or the key disabled or rotated since. */
  unauthorized: { code: 4001, reason: 'unauthorized' },
  /** The key holds its plan's connections already. */
  tooManyConnections: { code: 4008, reason: 'too_many_connections' },
  /** A client message over MAX_CLIENT_MESSAGE_BYTES. */
  tooBig: { code: 1009, reason: 'message_too_big' },
  /** MAX_AWAITING_AUTH sockets of the thread wait for their `auth` message already. */
  authBusy: { code: 1013, reason: 'too_many_awaiting_auth' },
} as const;

export const CHANNELS = ['editions', 'bars', 'screen'] as const;
export type Channel = (typeof CHANNELS)[number];
export const STREAM_FORMATS = ['json', 'msgpack'] as const;
export type StreamFormat = (typeof STREAM_FORMATS)[number];

/** The upgrade's query parameters (a parameter not declared here is a 400, as on every route). */
export const STREAM_QUERY = {
  format: oneOfParam(
    STREAM_FORMATS,
    'json',
    'json: every server message a JSON text frame; msgpack: a msgpack binary frame holding the value its JSON frame would. Client messages are JSON text either way.',
  ),
};

/** The codes an `error` message carries: from the problem catalogue (problem.ts). */
export const ERROR_CODES = [
  'invalid_parameter',
  'unknown_market',
  'unknown_symbol',
  'too_many_subscriptions',
  'rate_limited',
  'quota_exhausted',
  'limits_unavailable',
  'internal_error',
] as const satisfies readonly ProblemCode[];

/** One field of a client message: its JSON Schema and how its value parses (a throw is a Problem naming it). */
export interface Field<T> {
  schema: Schema;
  parse(value: unknown, name: string): T;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A string of 1 … `max` characters. */
function text(max: number, description: string): Field<string> {
  return {
    schema: { type: 'string', minLength: 1, maxLength: max, description },
    parse(value, name) {
      if (typeof value !== 'string' || value.length === 0 || value.length > max)
        throw badParam(name, `must be a string of 1 to ${max} characters`);
      return value;
    },
  };
}

/** One of `values`, exactly. */
function oneOf<T extends string>(values: readonly T[], description: string): Field<T> {
  return {
    schema: { type: 'string', enum: [...values], description },
    parse(value, name) {
      if (typeof value !== 'string' || !(values as readonly string[]).includes(value))
        throw badParam(name, `must be one of ${values.join(', ')}`);
      return value as T;
    },
  };
}

/** `"*"`, or the symbols in any form the API accepts (each a non-empty string), at most MAX_BARS_SYMBOLS. */
const SYMBOLS: Field<'*' | string[]> = {
  schema: {
    description: `Symbols in any form the API accepts (codes, suffixed forms, aliases; at most ${MAX_BARS_SYMBOLS}), or "*" for every symbol of the market.`,
    oneOf: [
      { type: 'string', const: '*' },
      { type: 'array', items: { type: 'string', minLength: 1 }, minItems: 1, maxItems: MAX_BARS_SYMBOLS },
    ],
  },
  parse(value, name) {
    if (value === '*') return '*';
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_BARS_SYMBOLS)
      throw badParam(name, `must be "*" or an array of 1 to ${MAX_BARS_SYMBOLS} symbols`);
    for (const item of value)
      if (typeof item !== 'string' || item.trim() === '')
        throw badParam(name, 'every symbol must be a non-empty string');
    return value.map((item: string) => item.trim());
  },
};

/** A screen's query: the parameters of GET /{market}/screen as an object of strings or finite numbers. */
const QUERY: Field<Map<string, string>> = {
  schema: {
    type: 'object',
    description:
      "The query parameters of GET /{market}/screen (sort, order, fields, limit, offset, min_<column>, max_<column>), as strings or numbers; checked exactly as that route checks them. `as_of` and `format` are not taken: a standing screen follows each new edition, in the socket's format.",
    additionalProperties: { type: ['string', 'number'] },
  },
  parse(value, name) {
    if (!isObject(value)) throw badParam(name, 'must be an object of query parameters');
    const query = new Map<string, string>();
    for (const [param, v] of Object.entries(value)) {
      if (typeof v === 'number' && Number.isFinite(v)) query.set(param, String(v));
      else if (typeof v === 'string') query.set(param, v);
      else throw badParam(param, 'must be a string or a finite number');
    }
    return query;
  },
};

const MARKET: Field<string> = {
  schema: { ...marketSchema, description: 'Market.' },
  parse(value, name) {
    if (typeof value !== 'string') throw badParam(name, 'must be a string');
    return value; // unknown_market is the hub's, with the route's own wording
  },
};

/** Every field a client message may carry, by name. */
export const FIELDS = {
  action: oneOf(['auth', 'subscribe', 'unsubscribe'] as const, 'What the message asks.'),
  channel: oneOf(CHANNELS, 'The channel subscribed to or left.'),
  key: text(256, 'An API key (`mdq_…`): for browsers, which cannot set a header on the upgrade.'),
  market: MARKET,
  symbols: SYMBOLS,
  id: text(MAX_SCREEN_ID, "The client's name for this screen, echoed in its messages."),
  query: QUERY,
} satisfies Record<string, Field<unknown>>;
export type FieldName = keyof typeof FIELDS;

/** One kind of client message: the actions it takes, its channel (none for `auth`), and its fields beside those two. */
export interface ClientMessageSpec {
  name: string;
  summary: string;
  actions: readonly ('auth' | 'subscribe' | 'unsubscribe')[];
  channel: Channel | null;
  required: readonly FieldName[];
  optional: readonly FieldName[];
}

/** The client messages, declared once: the parser accepts exactly these, the AsyncAPI document lists them. */
export const CLIENT_MESSAGES: readonly ClientMessageSpec[] = [
  {
    name: 'auth',
    summary:
      'The key, as the first message, within 5 s, when the upgrade carried none (browsers). A bad or missing key: close 4001.',
    actions: ['auth'],
    channel: null,
    required: ['key'],
    optional: [],
  },
  {
    name: 'editions',
    summary:
      'Subscribe to (or leave) every newly served edition: its version, the markets it changed, rows added, last dates.',
    actions: ['subscribe', 'unsubscribe'],
    channel: 'editions',
    required: [],
    optional: [],
  },
  {
    name: 'bars',
    summary:
      'Subscribe to (or leave) the rows each new edition adds for these symbols of a market (or "*"). Subscribing again adds symbols; leaving names the symbols to drop, or "*" for the whole market.',
    actions: ['subscribe', 'unsubscribe'],
    channel: 'bars',
    required: ['market', 'symbols'],
    optional: [],
  },
  {
    name: 'screenSubscribe',
    summary:
      'A standing screen: its page at once, then on every new edition the new page with what entered and exited it.',
    actions: ['subscribe'],
    channel: 'screen',
    required: ['market', 'id', 'query'],
    optional: [],
  },
  {
    name: 'screenUnsubscribe',
    summary: 'Leave the standing screen named `id`.',
    actions: ['unsubscribe'],
    channel: 'screen',
    required: ['id'],
    optional: ['market'],
  },
];

/** A client message's JSON Schema, from its declaration. */
export function clientMessageSchema(spec: ClientMessageSpec): Schema {
  const properties: Record<string, Schema> = { action: { ...FIELDS.action.schema, enum: [...spec.actions] } };
  if (spec.channel !== null) properties.channel = { type: 'string', const: spec.channel };
  for (const name of [...spec.required, ...spec.optional]) properties[name] = FIELDS[name].schema;
  return object(properties, [...spec.optional], spec.summary);
}

const constant = (value: string): Schema => ({ type: 'string', const: value });
/** A subscription as the `subscribed` and `unsubscribed` messages echo it: the request's fields but `action`. */
const echo = (type: string, description: string): Schema =>
  object(
    {
      type: constant(type),
      channel: FIELDS.channel.schema,
      market: marketSchema,
      symbols: SYMBOLS.schema,
      id: FIELDS.id.schema,
      query: QUERY.schema,
    },
    ['market', 'symbols', 'id', 'query'],
    description,
  );

/** Every server message's JSON Schema (one JSON object per frame, `type` first): what tests hold each sent message to. */
export const SERVER_MESSAGES = {
  welcome: object(
    {
      type: constant('welcome'),
      data_version: str,
      plan: str,
      limits: object({
        connections: { ...nullableInt, description: 'Connections the key may hold open at once (null: unlimited).' },
        subscriptions: { ...nullableInt, description: 'Subscriptions one connection may hold (null: unlimited).' },
      }),
    },
    [],
    'Sent once the key is accepted (at once with a key in the upgrade, else after `auth`).',
  ),
  subscribed: echo('subscribed', 'A subscription was taken: the request echoed.'),
  unsubscribed: echo('unsubscribed', 'A subscription was left: the request echoed.'),
  error: object(
    {
      type: constant('error'),
      code: { type: 'string', enum: [...ERROR_CODES] },
      param: str,
      detail: str,
      request: {
        type: 'object',
        additionalProperties: true,
        description: 'The client message at fault, as sent (absent when it was not a JSON object).',
      },
    },
    ['param', 'request'],
    'A client message refused (it changed nothing), or a subscription whose data stopped (quota_exhausted: until the quota day resets).',
  ),
  edition: object(
    {
      type: constant('edition'),
      data_version: str,
      previous: { ...nullableStr, description: 'The data version served before.' },
      markets: arrayOf(
        object({
          market: marketSchema,
          rows_added: { ...int, description: "K-line rows dated after the market's last day before this edition." },
          last_date: { ...nullableDate, description: "The market's last K-line day now." },
          history_changed: {
            type: 'boolean',
            description:
              "About stored (bfq) K-line rows. False when the edition only added rows dated after the market's last day before it (then `bars` holds every new row, and `factor_changed` the symbols whose qfq history moved); true when a row of an earlier day may differ (corrected, added late, withdrawn; any market read whole): fetch again what you hold of the market.",
          },
        }),
      ),
    },
    [],
    'A newly served edition, to `editions` subscribers: the markets it changed (a market whose files did not change is not listed).',
  ),
  bars: object(
    {
      type: constant('bars'),
      market: marketSchema,
      data_version: str,
      data: {
        ...mapOf(arrayOf(klineRow)),
        description:
          'By canonical code: the symbol\'s rows of every day the edition added (all K-line fields, bfq), as GET /{market}/klines?symbols=…&start=<first added day>&fields=* answers them. Listed symbols all appear (an empty array: no row those days); with "*", the symbols that have rows.',
      },
      factor_changed: {
        ...arrayOf(str),
        description: 'Subscribed symbols whose latest adj_factor changed: their qfq history moved, fetch it again.',
      },
    },
    [],
    'Per edition that adds days to the market (or moves a subscribed factor), to each `bars` subscription.',
  ),
  screen: object(
    {
      type: constant('screen'),
      id: FIELDS.id.schema,
      market: marketSchema,
      data_version: str,
      total: { ...int, description: 'Rows matching the screen (all pages).' },
      entered: {
        ...arrayOf(str),
        description: 'Symbols on this page that were not on the page before (at subscribe: all).',
      },
      exited: { ...arrayOf(str), description: 'Symbols on the page before that are not on this one.' },
      data: { ...arrayOf(snapshotRow), description: 'The page, as GET /{market}/screen answers it for this edition.' },
    },
    [],
    "A standing screen's page: at subscribe, then on every new edition.",
  ),
} satisfies Record<string, Schema>;
export type ServerMessageName = keyof typeof SERVER_MESSAGES;

/** How the subscriptions of a connection count against its plan's `subscriptions`. */
export const SUBSCRIPTION_WEIGHTS = 'editions 1; a screen 1; bars: 1 per symbol, "*" counts 100 per market';
