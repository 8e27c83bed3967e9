// Subscribing and leaving, per channel: the topics (one per channel, what it carries and format) and
// the standing screens, each shared by every connection that asks the same, and the plan's limit.

import type { Caches } from '../caches/caches.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import type { Market } from '../../engine/markets.js';
import { BARS_ALL_WEIGHT } from '../../engine/plans.js';
import { parseParams } from '../params/declare.js';
import { badParam, Problem } from '../problem.js';
import { marketOf, unknownSymbol } from '../routes/lookup.js';
import { type ScreenParams, screenAsk, screenRoute } from '../routes/screen.js';
import type { ClientMessage } from './client-message.js';
import {
  type BarsTopic,
  barsWeight,
  type Conn,
  type DataTopic,
  type EditionsTopic,
  type Held,
  type ScreenTopic,
  type Topic,
} from './connection.js';
import type { StreamFigures } from './figures.js';
import type { StreamFormat } from './protocol.js';
import { screenQueryKey } from './screen-runner.js';
import { type PageOfEdition, type ScreenHost, StandingScreen } from './standing-screen.js';

/** What subscribing needs of the hub: the Dataset served, replies and pages sent, the first page charged. */
export interface SubscriptionHost extends ScreenHost {
  dataset(): Dataset;
  /** The server's caches (a standing screen's row columns are worked out as the route's are). */
  readonly caches: Caches;
  figures: StreamFigures;
  /** Sends the `subscribed`/`unsubscribed` echo. */
  reply(conn: Conn, type: 'subscribed' | 'unsubscribed', message: ClientMessage): void;
  /** A screen's first page to one connection: charged, then sent; false when withheld (no rows left). */
  firstPage(conn: Conn, held: Held<ScreenTopic>, page: PageOfEdition): boolean;
  /** An error message for a subscription whose page could not be made. */
  failedPage(conn: Conn, held: Held<ScreenTopic>): void;
}

export class Subscriptions {
  /** Every topic with a subscriber, by key. */
  readonly topics = new Map<string, Topic>();
  /** Every standing screen with a topic, by key. */
  readonly screens = new Map<string, StandingScreen>();
  private named = 0;

  constructor(private readonly host: SubscriptionHost) {}

  /** Handles a subscribe or unsubscribe message (throws the Problem that refuses it). */
  handle(conn: Conn, m: ClientMessage): void {
    const subscribe = m.action === 'subscribe';
    if (m.channel === 'editions') subscribe ? this.subscribeEditions(conn, m) : this.leaveEditions(conn, m);
    else if (m.channel === 'bars') subscribe ? this.subscribeBars(conn, m) : this.leaveBars(conn, m);
    else subscribe ? this.subscribeScreen(conn, m) : this.leaveScreen(conn, m);
  }

  private topicOf<T extends Topic>(key: string, make: (name: string) => T): T {
    let topic = this.topics.get(key) as T | undefined;
    if (topic === undefined) this.topics.set(key, (topic = make(`t${++this.named}`)));
    return topic;
  }

  /** Takes `weight` more of the connection's subscriptions, or throws too_many_subscriptions (nothing changed). */
  private reserve(conn: Conn, weight: number): void {
    const limit = conn.key!.plan.subscriptions;
    if (limit !== null && conn.weight + weight > limit)
      throw new Problem(
        'too_many_subscriptions',
        `the ${conn.key!.plan.name} plan allows ${limit} subscriptions per connection (editions 1, a screen 1, bars 1 a symbol and 100 for "*"); this one would make ${conn.weight + weight}`,
      );
  }

  private count(conn: Conn, channel: Topic['channel'], weight: number): void {
    conn.weight += weight;
    this.host.figures.subscribed(channel, weight);
  }

  /** Puts `conn` on `topic`: in uWS's topic unless its messages are withheld or sent one by one (shared limits). */
  join(conn: Conn, topic: Topic): void {
    topic.subscribers.add(conn);
    if (topic.channel === 'editions' || (conn.viaPublish && !conn.paused.has(topic))) conn.ws?.subscribe(topic.name);
  }

  /** Takes `conn` off `topic` (its socket still open unless `closing`). */
  leave(conn: Conn, topic: Topic, closing = false): void {
    topic.subscribers.delete(conn);
    conn.paused.delete(topic);
    if (!closing) conn.ws?.unsubscribe(topic.name);
    this.prune(topic);
  }

  /** A topic nobody stands on (nor waits for) goes, and a screen left without topics. */
  private prune(topic: Topic): void {
    if (topic.subscribers.size > 0 || (topic.channel === 'screen' && topic.waiting > 0)) return;
    this.topics.delete(topic.key);
    if (topic.channel === 'screen') {
      topic.screen.topics.delete(topic);
      if (topic.screen.topics.size === 0) this.screens.delete(topic.screen.key), topic.screen.close();
    }
  }

  private subscribeEditions(conn: Conn, m: ClientMessage): void {
    if (conn.editions === null) {
      this.reserve(conn, 1);
      const topic = this.topicOf<EditionsTopic>(`e|${conn.format}`, (name) => ({
        name,
        key: `e|${conn.format}`,
        channel: 'editions',
        format: conn.format,
        subscribers: new Set(),
      }));
      this.join(conn, topic);
      conn.editions = topic;
      this.count(conn, 'editions', 1);
    }
    this.host.reply(conn, 'subscribed', m);
  }

  private leaveEditions(conn: Conn, m: ClientMessage): void {
    if (conn.editions !== null) {
      this.leave(conn, conn.editions);
      conn.editions = null;
      this.count(conn, 'editions', -1);
    }
    this.host.reply(conn, 'unsubscribed', m);
  }

  private barsTopic(market: Market, all: boolean, codes: readonly string[], format: StreamFormat): BarsTopic {
    const key = `b|${market}|${all ? '*' : codes.join(',')}|${format}`;
    return this.topicOf<BarsTopic>(key, (name) => ({
      name,
      key,
      channel: 'bars',
      market,
      all,
      codes,
      format,
      subscribers: new Set(),
    }));
  }

  /** The canonical codes `symbols` name in `market` (any form the API accepts); an unknown one is unknown_symbol. */
  private codesOf(market: Market, symbols: readonly string[]): string[] {
    const m = this.host.dataset().markets[market];
    return symbols.map((text) => {
      const i = m.symbols.find(text);
      if (i < 0) throw unknownSymbol(m, text, 'symbols', 'does not exist');
      return m.symbols.codes[i];
    });
  }

  /** Moves `conn`'s bars of `market` to the topic of `all`/`codes` (none: left), keeping its withheld state. */
  private rebar(conn: Conn, market: Market, all: boolean, codes: string[], request: Record<string, unknown>): void {
    const held = conn.bars.get(market);
    const weight = codes.length === 0 && !all ? 0 : barsWeight(all, codes.length, BARS_ALL_WEIGHT);
    const before = held === undefined ? 0 : barsWeight(held.topic.all, held.topic.codes.length, BARS_ALL_WEIGHT);
    if (weight > before) this.reserve(conn, weight - before);
    const paused = held !== undefined && conn.paused.has(held.topic);
    if (held !== undefined) this.leave(conn, held.topic);
    if (weight === 0) conn.bars.delete(market);
    else {
      const topic = this.barsTopic(market, all, codes.sort(), conn.format);
      if (paused) conn.paused.add(topic); // still no rows left: withheld on the new topic too
      this.join(conn, topic);
      conn.bars.set(market, { topic, request });
    }
    this.count(conn, 'bars', weight - before);
  }

  private subscribeBars(conn: Conn, m: ClientMessage): void {
    const market = marketOf(this.host.dataset(), m.market!).market;
    const held = conn.bars.get(market);
    const all = m.symbols === '*' || held?.topic.all === true;
    const codes = all
      ? []
      : [...new Set([...(held?.topic.codes ?? []), ...this.codesOf(market, m.symbols as string[])])];
    this.rebar(conn, market, all, codes, m.request);
    this.host.reply(conn, 'subscribed', m);
  }

  private leaveBars(conn: Conn, m: ClientMessage): void {
    const market = marketOf(this.host.dataset(), m.market!).market;
    const held = conn.bars.get(market);
    if (held !== undefined) {
      if (m.symbols === '*') this.rebar(conn, market, false, [], m.request);
      else if (held.topic.all)
        throw badParam('symbols', `the bars of ${market} are subscribed with "*": leave them with "*"`);
      else {
        const gone = new Set(this.codesOf(market, m.symbols as string[]));
        this.rebar(
          conn,
          market,
          false,
          held.topic.codes.filter((c) => !gone.has(c)),
          held.request,
        );
      }
    }
    this.host.reply(conn, 'unsubscribed', m);
  }

  private subscribeScreen(conn: Conn, m: ClientMessage): void {
    const dataset = this.host.dataset();
    const query = m.query!;
    // The route's own declaration and checks: a standing screen asks exactly what GET /{market}/screen may.
    const p = parseParams(query, screenRoute.query, screenRoute.patternQuery ?? null);
    if (query.has('as_of')) throw badParam('as_of', 'a standing screen follows each new edition: as_of is not taken');
    if (query.has('format')) throw badParam('format', "a standing screen's messages come in the socket's format");
    // The route's own declaration parsed these: its screen parameters, `format` and `as_of` refused above.
    const ask = screenAsk(
      dataset,
      m.market!,
      query,
      p as ScreenParams,
      conn.key!.plan,
      this.host.caches.of(dataset).screenColumns,
    );
    const id = m.id!;
    if (conn.screens.has(id)) throw badParam('id', `this connection stands on a screen named '${id}' already`);
    this.reserve(conn, 1);
    const market = ask.full.market;
    const key = `${screenQueryKey(market, ask.q)}|${ask.set.key}`;
    let screen = this.screens.get(key);
    if (screen === undefined)
      this.screens.set(key, (screen = new StandingScreen(key, market, ask, this.host, dataset)));
    const topicKey = `s|${key}|${id}|${conn.format}`;
    const standing = screen;
    const topic = this.topicOf<ScreenTopic>(topicKey, (name) => ({
      name,
      key: topicKey,
      channel: 'screen',
      screen: standing,
      id,
      format: conn.format,
      subscribers: new Set(),
      waiting: 0,
    }));
    screen.topics.add(topic);
    topic.waiting++;
    const held: Held<ScreenTopic> = { topic, request: m.request, pending: true };
    conn.screens.set(id, held);
    this.count(conn, 'screen', 1);
    this.host.reply(conn, 'subscribed', m);
    // The first page (made, or being made for the latest edition): sent, then the topic joined, so
    // the next edition's page follows it; until then the screen's topic does not hold this connection.
    screen.whenReady((page) => {
      if (conn.closed || conn.screens.get(id) !== held) return; // closed, or left before its page (no longer waiting)
      held.pending = false;
      topic.waiting--;
      if (page === null) {
        this.host.failedPage(conn, held);
        this.dropScreen(conn, id, held);
        return;
      }
      if (!this.host.firstPage(conn, held, page)) conn.paused.add(topic);
      if (!conn.closed) this.join(conn, topic);
    });
  }

  private dropScreen(conn: Conn, id: string, held: Held<ScreenTopic>): void {
    conn.screens.delete(id);
    if (held.pending) held.topic.waiting--, this.prune(held.topic);
    else this.leave(conn, held.topic);
    this.count(conn, 'screen', -1);
  }

  private leaveScreen(conn: Conn, m: ClientMessage): void {
    if (m.market !== undefined) marketOf(this.host.dataset(), m.market); // a market given must be one
    const held = conn.screens.get(m.id!);
    if (held !== undefined) this.dropScreen(conn, m.id!, held);
    this.host.reply(conn, 'unsubscribed', m);
  }

  /** Every subscription of a connection that closed (its socket is gone: uWS has left its topics). */
  closed(conn: Conn): void {
    if (conn.editions !== null) this.leave(conn, conn.editions, true), this.count(conn, 'editions', -1);
    for (const held of conn.bars.values()) {
      this.leave(conn, held.topic, true);
      this.count(conn, 'bars', -barsWeight(held.topic.all, held.topic.codes.length, BARS_ALL_WEIGHT));
    }
    for (const [id, held] of conn.screens) this.dropScreen(conn, id, held);
    conn.editions = null;
    conn.bars.clear();
  }

  /** The data topics of `conn` (bars and the screens whose first page it has). */
  *dataTopics(conn: Conn): Generator<DataTopic> {
    for (const held of conn.bars.values()) yield held.topic;
    for (const held of conn.screens.values()) if (!held.pending) yield held.topic;
  }

  /** The bars topics of `market`. */
  *barsTopics(market: Market): Generator<BarsTopic> {
    for (const topic of this.topics.values()) if (topic.channel === 'bars' && topic.market === market) yield topic;
  }

  /** The editions topics (one per format in use). */
  *editionsTopics(): Generator<EditionsTopic> {
    for (const topic of this.topics.values()) if (topic.channel === 'editions') yield topic;
  }
}
