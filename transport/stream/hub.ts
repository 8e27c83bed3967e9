// One serving thread's WebSockets at /api/v1/stream: their lifecycle (open, auth, close, drain, keys
// that change), the client messages, and each new edition's messages, serialised once per topic,
// published to its subscribers and charged to each subscriber's key.

import uWS, { type TemplatedApp, type WebSocket } from 'uWebSockets.js';
import type { Caches } from '../caches/caches.js';
import type { Dataset } from '../../engine/dataset/dataset.js';
import { editionChanges, type MarketChange } from '../../engine/queries/edition-changes.js';
import { LimitsUnavailable } from '../guard/shared-limits.js';
import type { KeyState, Verdict } from '../guard/guard.js';
import type { ServerContext } from '../lifecycle/context.js';
import { plain } from '../lifecycle/service-paths.js';
import { Problem } from '../problem.js';
import { publishFrame, sendFrame } from '../respond.js';
import { BadMessage, type ClientMessage, parseClientMessage } from './client-message.js';
import type { Conn, DataTopic, Held, ScreenTopic, Topic } from './connection.js';
import { AddedBars, editionMessage } from './edition-messages.js';
import { encoded, type Frame, frameBytes } from './encode.js';
import { StreamFigures } from './figures.js';
import {
  AUTH_WITHIN_MS,
  CLOSE,
  DEFAULT_IDLE_SECONDS,
  ERROR_CODES,
  MAX_AWAITING_AUTH,
  MAX_BUFFERED_MESSAGE_BYTES,
  MAX_CLIENT_MESSAGE_BYTES,
  MAX_UNSENT_BYTES,
  STREAM_PATH,
} from './protocol.js';
import type { ScreenRunner } from './screen-runner.js';
import { type PageOfEdition, pageChanges, screenMessage } from './standing-screen.js';
import { type SubscriptionHost, Subscriptions } from './subscriptions.js';
import { upgradeHandler } from './upgrade.js';

/** uWS skips (silently) a socket past its maxBackpressure: set far above MAX_UNSENT_BYTES, which the hub enforces itself with a close. */
const UWS_MAX_BACKPRESSURE = 1024 * 1024 * 1024;

export interface StreamOptions {
  /** Where standing screens run (the kernel pool, or inline). */
  runner: ScreenRunner;
  /** Seconds of silence before a socket is closed as dead (uWS pings live ones before then). */
  idleSeconds?: number;
}

export class StreamHub implements SubscriptionHost {
  readonly figures = new StreamFigures();
  readonly runner: ScreenRunner;
  private readonly subscriptions: Subscriptions;
  private readonly conns = new Set<Conn>();
  /** Sockets waiting for their `auth` message (MAX_AWAITING_AUTH at most). */
  private awaitingAuth = 0;
  private app: TemplatedApp | null = null;
  /** The Dataset whose messages went out last: a new edition is told against it. */
  private served: Dataset | null;
  private readonly idleSeconds: number;
  private readonly stopWatchingKeys: () => void;

  constructor(
    private readonly ctx: ServerContext,
    options: StreamOptions,
  ) {
    this.runner = options.runner;
    this.idleSeconds = options.idleSeconds ?? DEFAULT_IDLE_SECONDS;
    this.served = ctx.state.dataset;
    this.subscriptions = new Subscriptions(this);
    this.stopWatchingKeys = ctx.guard.onKeysChanged(() => this.keysChanged());
  }

  /** Registers /api/v1/stream on `app` (a GET that asks no upgrade is 426 upgrade_required). */
  mount(app: TemplatedApp): void {
    this.app = app;
    app.ws<Conn>(STREAM_PATH, {
      compression: uWS.DISABLED,
      maxPayloadLength: MAX_BUFFERED_MESSAGE_BYTES,
      maxBackpressure: UWS_MAX_BACKPRESSURE,
      closeOnBackpressureLimit: 0,
      idleTimeout: this.idleSeconds,
      sendPingsAutomatically: true,
      upgrade: upgradeHandler(this.ctx),
      open: (ws) => this.opened(ws),
      message: (ws, data, isBinary) => this.received(ws, data, isBinary),
      close: (ws) => this.closed(ws),
    });
    const route = this.ctx.requests.routeIndex(STREAM_PATH);
    app.get(
      STREAM_PATH,
      plain(this.ctx, route, 'cors', () => {
        throw new Problem('upgrade_required', `${STREAM_PATH} upgrades to a WebSocket: send Upgrade: websocket`);
      }),
    );
  }

  // ---- what subscriptions need of the hub (SubscriptionHost) ----------------------------------

  dataset(): Dataset {
    return this.served!;
  }

  get caches(): Caches {
    return this.ctx.caches;
  }

  hold(dataset: Dataset): void {
    this.ctx.hold(dataset);
  }

  settled(dataset: Dataset): void {
    this.ctx.settled(dataset);
  }

  failed(error: unknown): void {
    this.ctx.internalError(error, STREAM_PATH, 'stream');
  }

  reply(conn: Conn, type: 'subscribed' | 'unsubscribed', m: ClientMessage): void {
    const { action: _, ...echo } = m.request;
    this.send(conn, encoded(conn.format, { type, ...echo }));
  }

  firstPage(conn: Conn, held: Held<ScreenTopic>, page: PageOfEdition): boolean {
    const key = conn.key!;
    const rows = page.codes.length;
    const frame = (): Frame =>
      screenMessage(conn.format, held.topic.id, held.topic.screen.market, page, page.codes, []);
    if (!conn.viaPublish) {
      void this.ctx.guard.chargePushShared(key, rows, this.ctx.now()).then(
        (ok) => {
          if (conn.closed || conn.screens.get(held.topic.id) !== held) return;
          if (ok) this.send(conn, frame());
          else this.withhold(conn, held.topic, held.request);
        },
        (error: unknown) => conn.closed || this.sendError(conn, this.problemOf(error), held.request),
      );
      return true;
    }
    if (!this.ctx.guard.chargePush(key, rows, this.ctx.now())) {
      this.withheldNotice(conn, held.request);
      return false;
    }
    this.send(conn, frame());
    return true;
  }

  failedPage(conn: Conn, held: Held<ScreenTopic>): void {
    this.sendError(conn, new Problem('internal_error'), held.request);
  }

  // ---- sockets ---------------------------------------------------------------------------------

  private opened(ws: WebSocket<Conn>): void {
    const conn = ws.getUserData();
    conn.ws = ws;
    this.conns.add(conn);
    this.figures.connected(1);
    if (conn.key !== null) return this.accept(conn, conn.key, conn.presented!);
    if (this.awaitingAuth >= MAX_AWAITING_AUTH) return this.end(conn, CLOSE.authBusy);
    this.awaitingAuth++;
    conn.authTimer = setTimeout(() => {
      this.stopAuthWait(conn);
      if (!conn.closed && conn.key === null) this.end(conn, CLOSE.unauthorized);
    }, AUTH_WITHIN_MS);
  }

  /** The socket no longer waits for its `auth` message (given, timed out, or closed). */
  private stopAuthWait(conn: Conn): void {
    if (conn.authTimer === null) return;
    clearTimeout(conn.authTimer);
    conn.authTimer = null;
    this.awaitingAuth--;
  }

  /** The key is good: one of its connections taken (else closed 4008), then `welcome`. */
  private accept(conn: Conn, key: KeyState, presented: string): void {
    conn.key = key;
    conn.presented = presented;
    this.stopAuthWait(conn);
    if (!this.ctx.guard.openStream(key)) return this.end(conn, CLOSE.tooManyConnections);
    conn.holdsSlot = true;
    conn.viaPublish = !this.ctx.guard.isShared(key);
    const { connections, subscriptions } = key.plan;
    this.send(
      conn,
      encoded(conn.format, {
        type: 'welcome',
        data_version: this.served?.version ?? null,
        plan: key.plan.name,
        limits: { connections, subscriptions },
      }),
    );
  }

  private closed(ws: WebSocket<Conn>): void {
    const conn = ws.getUserData();
    conn.closed = true;
    conn.ws = null; // uWS's object is invalid from here on
    this.stopAuthWait(conn);
    this.subscriptions.closed(conn);
    if (conn.holdsSlot) this.ctx.guard.closeStream(conn.key!), (conn.holdsSlot = false);
    if (this.conns.delete(conn)) this.figures.connected(-1);
  }

  private end(conn: Conn, why: { code: number; reason: string }): void {
    conn.ws?.end(why.code, why.reason); // the close handler runs at once
  }

  /** Sends one frame to one socket, unless it holds more than MAX_UNSENT_BYTES unsent: then it is closed 1013. */
  send(conn: Conn, frame: Frame): void {
    const ws = conn.ws;
    if (ws === null) return;
    if (ws.getBufferedAmount() > MAX_UNSENT_BYTES) return this.closeForBackpressure(conn);
    sendFrame(ws, frame);
    this.figures.sent(1, frameBytes(frame));
  }

  private closeForBackpressure(conn: Conn): void {
    this.figures.droppedForBackpressure();
    this.end(conn, CLOSE.backpressure);
  }

  private problemOf(error: unknown): Problem {
    if (error instanceof Problem) return error;
    if (error instanceof LimitsUnavailable) return new Problem('limits_unavailable');
    return this.ctx.internalError(error, STREAM_PATH, 'stream');
  }

  sendError(conn: Conn, problem: Problem, request: Record<string, unknown> | null): void {
    const code = (ERROR_CODES as readonly string[]).includes(problem.code) ? problem.code : 'internal_error';
    const value: Record<string, unknown> = { type: 'error', code };
    if (problem.param !== undefined) value.param = problem.param;
    value.detail = problem.detail;
    if (request !== null) value.request = request;
    this.send(conn, encoded(conn.format, value));
  }

  // ---- client messages -------------------------------------------------------------------------

  private received(ws: WebSocket<Conn>, data: ArrayBuffer, isBinary: boolean): void {
    const conn = ws.getUserData();
    if (data.byteLength > MAX_CLIENT_MESSAGE_BYTES) return this.end(conn, CLOSE.tooBig);
    // Read now: uWS hands a view valid only until this handler returns.
    const text = isBinary ? null : Buffer.from(data).toString('utf8');
    if (conn.busy > 0) return this.enqueue(conn, () => this.handle(conn, text));
    const pending = this.handle(conn, text);
    if (pending !== undefined) this.enqueue(conn, () => pending);
  }

  /** Runs `step` after the connection's earlier asynchronous messages: a client's messages take effect in order. */
  private enqueue(conn: Conn, step: () => Promise<void> | undefined): void {
    conn.busy++;
    conn.queue = conn.queue
      .then(step)
      .catch((error: unknown) => this.failed(error))
      .finally(() => void conn.busy--);
  }

  /** One client message: a token from the key's bucket, then its action. A Promise when the bucket is shared (Redis). */
  private handle(conn: Conn, text: string | null): Promise<void> | undefined {
    if (conn.closed) return undefined;
    const { guard } = this.ctx;
    if (conn.key === null) return this.authenticate(conn, text);
    if (!guard.isShared(conn.key)) return void this.act(conn, text, guard.admit(conn.key, this.ctx.now(), false));
    return guard.admitShared(conn.key, this.ctx.now(), false).then(
      (verdict) => this.act(conn, text, verdict),
      (error: unknown) => void (conn.closed || this.sendError(conn, this.problemOf(error), requestOf(text))),
    );
  }

  /** Before a key: only `auth` with a good key is taken; anything else closes 4001. Its message takes a token too. */
  private authenticate(conn: Conn, text: string | null): Promise<void> | undefined {
    let m: ClientMessage | null = null;
    try {
      if (text !== null) m = parseClientMessage(text);
    } catch {
      // not a client message: unauthorized
    }
    const { guard } = this.ctx;
    const key = m?.action === 'auth' ? guard.authenticate(m.key!) : null;
    if (key === null || m === null) return void this.end(conn, CLOSE.unauthorized);
    const admitted = (verdict: Verdict): void => {
      if (conn.closed || conn.key !== null) return;
      if (!verdict.ok) return this.sendError(conn, refusal(verdict), m.request);
      this.accept(conn, key, m.key!);
    };
    if (!guard.isShared(key)) return void admitted(guard.admit(key, this.ctx.now(), false));
    return guard.admitShared(key, this.ctx.now(), false).then(admitted, (error: unknown) => {
      if (!conn.closed) this.sendError(conn, this.problemOf(error), m.request);
    });
  }

  /** An authenticated connection's message once its token was asked: refused (rate_limited), refused (not a message), or done. */
  private act(conn: Conn, text: string | null, verdict: Verdict): void {
    if (conn.closed) return;
    if (!verdict.ok) return this.sendError(conn, refusal(verdict), requestOf(text));
    if (text === null)
      return this.sendError(conn, badMessage('a binary frame is not a client message: send JSON text'), null);
    let m: ClientMessage;
    try {
      m = parseClientMessage(text);
    } catch (error) {
      if (error instanceof BadMessage) return this.sendError(conn, error.problem, error.request);
      throw error;
    }
    try {
      if (m.action === 'auth')
        throw new Problem('invalid_parameter', 'action: this connection has a key already', 'action');
      this.subscriptions.handle(conn, m);
    } catch (error) {
      this.sendError(conn, this.problemOf(error), m.request);
    }
  }

  // ---- keys, drain ---------------------------------------------------------------------------

  /** A new key table: a connection whose key it disabled, rotated or removed is closed 4001; a key whose limits moved (shared or not) is re-joined. */
  private keysChanged(): void {
    const { guard } = this.ctx;
    const gone: Conn[] = [];
    for (const conn of this.conns) {
      if (conn.key === null || conn.closed) continue;
      if (guard.authenticate(conn.presented) !== conn.key) gone.push(conn);
      else if (conn.holdsSlot && conn.viaPublish === guard.isShared(conn.key)) this.rejoin(conn);
    }
    for (const conn of gone) this.end(conn, CLOSE.unauthorized);
  }

  /** Its key's limits moved between this instance and the shared store: its data topics follow. */
  private rejoin(conn: Conn): void {
    conn.viaPublish = !conn.viaPublish;
    for (const topic of this.subscriptions.dataTopics(conn))
      if (conn.viaPublish && !conn.paused.has(topic)) conn.ws!.subscribe(topic.name);
      else conn.ws!.unsubscribe(topic.name);
  }

  /** SIGTERM: every socket is sent close 1001 (the listener is closed already: no new one comes). */
  goingAway(): void {
    for (const conn of [...this.conns]) this.end(conn, CLOSE.goingAway);
  }

  /** Ends the hub's watch of the key table (the server is closing). */
  close(): void {
    this.stopWatchingKeys();
  }

  /** Open connections now (the dashboard's per key comes from the guard's shared counts). */
  get connections(): number {
    return this.conns.size;
  }

  // ---- editions ------------------------------------------------------------------------------

  /**
   * `next` is served from now on: its `edition` message, each bars topic's rows of the days it
   * added, and each standing screen re-run on it (one run per distinct screen), each message
   * serialised once and published to the topic's subscribers. Called as the Dataset is swapped,
   * while the one before is still open (its added rows and factors are read from both).
   */
  published(next: Dataset): void {
    const before = this.served;
    this.served = next;
    if (before === null || before === next || this.subscriptions.topics.size === 0) return;
    const startedAt = performance.timeOrigin + performance.now(); // the bench's fan-out is timed from here
    const changes = editionChanges(before, next);
    for (const topic of this.subscriptions.editionsTopics())
      this.deliver(topic, encoded(topic.format, editionMessage(before, next, changes)), null);
    this.deliverBars(next, changes);
    for (const screen of this.subscriptions.screens.values())
      screen.advance(next, (was, page) => {
        const { entered, exited } = pageChanges(was?.codes ?? [], page.codes);
        for (const topic of screen.topics) {
          if (topic.subscribers.size === 0) continue;
          const frame = screenMessage(topic.format, topic.id, screen.market, page, entered, exited);
          this.deliver(topic, frame, page.codes.length);
        }
      });
    this.ctx.logger?.info(
      {
        data_version: next.version,
        sockets: this.conns.size,
        topics: this.subscriptions.topics.size,
        screens: this.subscriptions.screens.size,
        published_at: Math.round(startedAt * 1000) / 1000,
        ms: Math.round((performance.timeOrigin + performance.now() - startedAt) * 1000) / 1000,
      },
      'stream: edition published (editions and bars sent; standing screens re-running)',
    );
  }

  private deliverBars(next: Dataset, changes: readonly MarketChange[]): void {
    for (const change of changes) {
      let added: AddedBars | null = null;
      for (const topic of this.subscriptions.barsTopics(change.after.market)) {
        added ??= new AddedBars(change, next.version);
        const message = added.message(topic);
        if (message !== null) this.deliver(topic, message.frame, message.rows);
      }
    }
  }

  /**
   * One message to every subscriber of `topic`: published once through uWS to those whose
   * limits are here, each charged `rows` first (none left: withheld, with one quota_exhausted
   * error, and out of the uWS topic until the day resets); sent to each one whose limits are
   * shared once the shared store charged it. `rows` null: a message that charges nothing.
   * A subscriber holding more than MAX_UNSENT_BYTES unsent is closed 1013 instead.
   */
  deliver(topic: Topic, frame: Frame, rows: number | null): void {
    const { guard } = this.ctx;
    const nowMs = this.ctx.now();
    const slow: Conn[] = [];
    const shared: Conn[] = [];
    for (const conn of topic.subscribers) {
      if (conn.ws === null) continue;
      if (conn.ws.getBufferedAmount() > MAX_UNSENT_BYTES) slow.push(conn);
      else if (rows === null) continue;
      else if (!conn.viaPublish) shared.push(conn);
      else {
        const ok = guard.chargePush(conn.key!, rows, nowMs); // a few integer steps per subscriber: nothing serialised here
        if (ok === conn.paused.has(topic)) this.toggle(conn, topic as DataTopic, ok);
      }
    }
    for (const conn of slow) this.closeForBackpressure(conn);
    if (this.app !== null && topic.subscribers.size > 0) {
      const reached = publishFrame(this.app, topic.name, frame);
      this.figures.sent(reached, reached * frameBytes(frame));
    }
    for (const conn of shared)
      guard.chargePushShared(conn.key!, rows!, nowMs).then(
        (ok) => {
          if (conn.closed || !topic.subscribers.has(conn)) return;
          if (ok === conn.paused.has(topic)) this.toggle(conn, topic as DataTopic, ok);
          if (ok) this.send(conn, frame);
        },
        (error: unknown) => conn.closed || this.sendError(conn, this.problemOf(error), heldRequest(conn, topic)),
      );
  }

  /** Withholds (`ok` false) or resumes (`ok` true) a subscriber's data messages on `topic`. */
  private toggle(conn: Conn, topic: DataTopic, ok: boolean): void {
    if (ok) {
      conn.paused.delete(topic);
      if (conn.viaPublish) conn.ws!.subscribe(topic.name);
    } else this.withhold(conn, topic, heldRequest(conn, topic));
  }

  private withhold(conn: Conn, topic: DataTopic, request: Record<string, unknown>): void {
    conn.paused.add(topic);
    if (conn.viaPublish) conn.ws?.unsubscribe(topic.name);
    this.withheldNotice(conn, request);
  }

  private withheldNotice(conn: Conn, request: Record<string, unknown>): void {
    this.sendError(
      conn,
      new Problem('quota_exhausted', 'no rows left today: this subscription sends nothing until the quota day resets'),
      request,
    );
  }
}

/** The request that made `conn`'s subscription to `topic`. */
function heldRequest(conn: Conn, topic: Topic): Record<string, unknown> {
  if (topic.channel === 'bars') return conn.bars.get(topic.market)?.request ?? {};
  if (topic.channel === 'screen') return conn.screens.get(topic.id)?.request ?? {};
  return {};
}

/** The JSON object a frame holds, for an error's `request` (null when it holds none). */
function requestOf(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}

const badMessage = (detail: string): Problem => new Problem('invalid_parameter', `message: ${detail}`, 'message');

/** A refused token as its error. */
const refusal = (v: Verdict): Problem =>
  new Problem('rate_limited', `request rate above the plan: retry in ${v.retryAfter} s`, { retryAfter: v.retryAfter });
