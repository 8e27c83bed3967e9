// A client's frame read as one of the declared client messages (protocol.ts), or the problem it is.

import { badParam, Problem } from '../problem.js';
import { type Channel, CLIENT_MESSAGES, type ClientMessageSpec, FIELDS, type FieldName } from './protocol.js';

/** A client message that parsed: its declaration, action, channel and field values. */
export interface ClientMessage {
  spec: ClientMessageSpec;
  action: 'auth' | 'subscribe' | 'unsubscribe';
  channel: Channel | null;
  /** The message as sent (echoed in `subscribed`, `unsubscribed` and `error`). */
  request: Record<string, unknown>;
  key?: string;
  market?: string;
  symbols?: '*' | string[];
  id?: string;
  query?: Map<string, string>;
}

/** A frame that is not a client message: the problem, and the JSON object it was when it was one (for the error's `request`). */
export class BadMessage extends Error {
  constructor(
    readonly problem: Problem,
    readonly request: Record<string, unknown> | null,
  ) {
    super(problem.detail);
  }
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The declared message of `action` on `channel`. */
const specOf = (action: string, channel: Channel | null): ClientMessageSpec | undefined =>
  CLIENT_MESSAGES.find((s) => s.actions.includes(action as never) && s.channel === channel);

/**
 * Reads `text` (a text frame) as a client message: a JSON object with an `action`, a `channel`
 * (all but `auth`) and exactly the fields its declaration names. Throws BadMessage naming the
 * field at fault (`invalid_parameter`).
 */
export function parseClientMessage(text: string): ClientMessage {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new BadMessage(badParam('message', 'is not JSON: a client message is one JSON object per text frame'), null);
  }
  if (!isObject(value)) throw new BadMessage(badParam('message', 'must be a JSON object'), null);
  const request = value;
  try {
    const action = FIELDS.action.parse(request.action, 'action');
    const channel = action === 'auth' ? null : FIELDS.channel.parse(request.channel, 'channel');
    const spec = specOf(action, channel);
    if (spec === undefined) throw badParam('action', `${action} is not a message of channel ${channel}`);
    const allowed = new Set<string>([
      'action',
      ...(channel === null ? [] : ['channel']),
      ...spec.required,
      ...spec.optional,
    ]);
    for (const name of Object.keys(request))
      if (!allowed.has(name))
        throw badParam(name, `is not a field of ${action}${channel === null ? '' : ` ${channel}`}`);
    const message: ClientMessage = { spec, action, channel, request };
    const fields = message as unknown as Record<FieldName, unknown>;
    for (const name of spec.required) {
      if (!Object.hasOwn(request, name)) throw badParam(name, 'is required');
      fields[name] = FIELDS[name].parse(request[name], name);
    }
    for (const name of spec.optional)
      if (Object.hasOwn(request, name)) fields[name] = FIELDS[name].parse(request[name], name);
    return message;
  } catch (error) {
    if (error instanceof Problem) throw new BadMessage(error, request);
    throw error;
  }
}
