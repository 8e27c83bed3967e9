// One WebSocket's state (its uWS user data) and the topics its subscriptions join.

import type { WebSocket } from 'uWebSockets.js';
import type { Market } from '../../engine/markets.js';
import type { KeyState } from '../guard/guard.js';
import type { StreamFormat } from './protocol.js';
import type { StandingScreen } from './standing-screen.js';

/**
 * A uWS topic of one channel and format, and the connections standing on it. A data topic's
 * message is serialised once and published to every subscriber; `subscribers` also holds the
 * ones whose messages are withheld (no rows left today: out of the uWS topic until the day
 * resets) and those of keys whose limits are shared (Redis), which are sent each message once
 * their charge is answered.
 */
interface TopicBase {
  /** The uWS topic name (short: a number). */
  readonly name: string;
  /** The registry's key: channel, what it carries, format. */
  readonly key: string;
  readonly format: StreamFormat;
  readonly subscribers: Set<Conn>;
}

export interface EditionsTopic extends TopicBase {
  readonly channel: 'editions';
}

export interface BarsTopic extends TopicBase {
  readonly channel: 'bars';
  readonly market: Market;
  /** Every symbol of the market (`*`), or these canonical codes (sorted). */
  readonly all: boolean;
  readonly codes: readonly string[];
}

export interface ScreenTopic extends TopicBase {
  readonly channel: 'screen';
  readonly screen: StandingScreen;
  /** The client's name for the screen, carried in its messages. */
  readonly id: string;
  /** Connections whose first page is still being made: they join once it is sent. */
  waiting: number;
}

export type Topic = EditionsTopic | BarsTopic | ScreenTopic;
/** A topic whose messages carry rows (charged to each subscriber's quota). */
export type DataTopic = BarsTopic | ScreenTopic;

/** A connection's subscription to one data topic, and the request that made it (echoed in its errors). */
export interface Held<T extends DataTopic> {
  topic: T;
  request: Record<string, unknown>;
  /** A screen's first page is still being made: not yet a subscriber of its topic. */
  pending?: boolean;
}

/** One WebSocket: valid from `open` until `closed` (uWS's object must not be used after its close). */
export interface Conn {
  readonly serial: number;
  readonly format: StreamFormat;
  /** Set at open; null once closed. */
  ws: WebSocket<Conn> | null;
  closed: boolean;
  /** The key, once accepted (by the upgrade's header or an `auth` message), and the text it was presented as (re-checked when the keys change). */
  key: KeyState | null;
  presented: string | null;
  /** It holds one of its key's connections (given back at close). */
  holdsSlot: boolean;
  /** The `auth` deadline (browsers), cleared once authenticated or closed. */
  authTimer: NodeJS.Timeout | null;
  /** Its data arrives by uWS publish (its key's limits are this instance's), else one send per message after a shared (Redis) charge. */
  viaPublish: boolean;
  /** Subscriptions as the plan counts them. */
  weight: number;
  editions: EditionsTopic | null;
  bars: Map<Market, Held<BarsTopic>>;
  screens: Map<string, Held<ScreenTopic>>;
  /** Data topics whose messages are withheld: the key had no rows left. */
  paused: Set<Topic>;
  /** Client messages waiting on an asynchronous step (a shared bucket): later ones queue behind them, in arrival order. */
  queue: Promise<void>;
  busy: number;
}

let serials = 0;

/** A connection about to be upgraded, in `format`. */
export function newConn(format: StreamFormat): Conn {
  return {
    serial: ++serials,
    format,
    ws: null,
    closed: false,
    key: null,
    presented: null,
    holdsSlot: false,
    authTimer: null,
    viaPublish: true,
    weight: 0,
    editions: null,
    bars: new Map(),
    screens: new Map(),
    paused: new Set(),
    queue: Promise.resolve(),
    busy: 0,
  };
}

/** What a `bars` subscription counts: 1 per symbol, `*` BARS_ALL_WEIGHT. */
export const barsWeight = (all: boolean, symbols: number, allWeight: number): number => (all ? allWeight : symbols);
