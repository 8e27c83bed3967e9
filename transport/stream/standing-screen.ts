// A standing screen: one distinct screen query, re-run on every new edition, its page rendered once
// for every socket that stands on it, with what entered and exited the page.

import type { Dataset } from '../../engine/dataset/dataset.js';
import type { Market } from '../../engine/markets.js';
import { type ScreenAsk, screenPage } from '../routes/screen.js';
import { screenShape } from '../shapes/screen.js';
import type { ScreenTopic } from './connection.js';
import { type Frame, SharedPart, withData } from './encode.js';
import type { StreamFormat } from './protocol.js';
import type { ScreenRunner } from './screen-runner.js';

/** A screen's page of one edition, as every socket on it is sent it. */
export interface PageOfEdition {
  readonly version: string;
  readonly total: number;
  /** The page's symbols, in page order. */
  readonly codes: readonly string[];
  /** The rows, as GET /{market}/screen answers them, encoded once per format. */
  readonly data: SharedPart;
}

/** What a standing screen needs from its server: where screens run, and the hold that keeps a Dataset open while its page is made. */
export interface ScreenHost {
  runner: ScreenRunner;
  hold(dataset: Dataset): void;
  settled(dataset: Dataset): void;
  /** An unexpected failure (logged; the screen keeps its last page). */
  failed(error: unknown): void;
}

export class StandingScreen {
  readonly topics = new Set<ScreenTopic>();
  /** The page of the latest edition asked for, made in edition order; null when none could be made. */
  private latest: Promise<PageOfEdition | null>;
  /** Runs asked so far, and the newest one whose run resolved: the one run this screen stands on (the runner keeps it for others asking the same). */
  private asked = 0;
  private standing: { seq: number; dataset: Dataset } | null = null;
  private closed = false;

  constructor(
    /** Market and query (screen-runner.ts screenQueryKey) with the rows' columns. */
    readonly key: string,
    readonly market: Market,
    readonly ask: ScreenAsk,
    private readonly host: ScreenHost,
    dataset: Dataset,
  ) {
    this.latest = this.pageOf(dataset).catch((error: unknown) => (host.failed(error), null));
  }

  /** `then` with the latest page (the one made for the newest edition asked), once made. */
  whenReady(then: (page: PageOfEdition | null) => void): void {
    void this.latest.then(then).catch((error: unknown) => this.host.failed(error));
  }

  /**
   * Runs the screen for `dataset` now (in parallel with any run still going) and, once the page
   * before is out, hands `deliver` both pages: editions are delivered in the order they came.
   */
  advance(dataset: Dataset, deliver: (before: PageOfEdition | null, page: PageOfEdition) => void): void {
    const making = this.pageOf(dataset);
    making.catch(() => {}); // its failure is handled in the chain below, once the page before is out
    this.latest = this.latest.then((before) =>
      making.then(
        (page) => {
          try {
            deliver(before, page);
          } catch (error) {
            this.host.failed(error);
          }
          return page;
        },
        (error: unknown) => (this.host.failed(error), before),
      ),
    );
  }

  /** No topic stands on this screen any longer: the run it stands on is released (and any still running, once resolved). */
  close(): void {
    this.closed = true;
    if (this.standing !== null) this.host.runner.release(this.standing.dataset, this.market, this.ask.q);
    this.standing = null;
  }

  /** A run of `dataset` resolved: the screen stands on the newest such run only, and on none once closed. */
  private stand(seq: number, dataset: Dataset): void {
    const { runner } = this.host;
    if (this.closed || (this.standing !== null && this.standing.seq > seq)) {
      runner.release(dataset, this.market, this.ask.q);
      return;
    }
    if (this.standing !== null) runner.release(this.standing.dataset, this.market, this.ask.q);
    this.standing = { seq, dataset };
  }

  private async pageOf(dataset: Dataset): Promise<PageOfEdition> {
    const { host, ask, market } = this;
    const seq = ++this.asked;
    host.hold(dataset); // the rows are read from the Dataset after the run: it must stay open until then
    try {
      const result = await host.runner.run(dataset, market, ask.q);
      this.stand(seq, dataset);
      const value = screenShape.value(screenPage(ask, dataset.markets[market], result)) as {
        total: number;
        data: Record<string, unknown>[];
      };
      return {
        version: dataset.version,
        total: value.total,
        codes: value.data.map((row) => row.symbol as string),
        data: new SharedPart(value.data),
      };
    } finally {
      host.settled(dataset);
    }
  }
}

/** The symbols of `page` not in `before` (page order), and those of `before` not in `page` (its order). */
export function pageChanges(
  before: readonly string[],
  page: readonly string[],
): { entered: string[]; exited: string[] } {
  const was = new Set(before);
  const is = new Set(page);
  return { entered: page.filter((c) => !was.has(c)), exited: before.filter((c) => !is.has(c)) };
}

/** A `screen` message of `page` for the socket's name `id`. */
export function screenMessage(
  format: StreamFormat,
  id: string,
  market: Market,
  page: PageOfEdition,
  entered: readonly string[],
  exited: readonly string[],
): Frame {
  const head = { type: 'screen', id, market, data_version: page.version, total: page.total, entered, exited };
  return withData(format, head, page.data);
}
