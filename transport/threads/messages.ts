// What the main thread and the other serving threads tell each other (THREADS ≥ 2).

import type { DatasetOrigin } from '../../engine/dataset/dataset.js';
import type { Market } from '../../engine/markets.js';
import type { KeyRecord, PlansMessage } from '../../engine/plans.js';
import type { ScreenQueryMessage } from '../stream/screen-runner.js';
import type { MeterState } from '../admin/meter.js';
import type { MessagePort } from 'node:worker_threads';
import type { RequestStorage } from '../metrics/request-metrics.js';

/** Where a serving thread opens an edition (loaders/edition/open-edition.ts). */
export interface EditionToServe {
  stateDir: string;
  version: string;
}

/**
 * A serving thread's start: its settings (`S`: the server's checked settings, as the composition
 * root posts them), where to listen, the data, the keys and their shared slots.
 */
export interface ThreadStart<S = unknown> {
  /** 1, 2, …: the main thread is 0. */
  thread: number;
  settings: S;
  port: number;
  /** Where the dashboard and /metrics are handed to the main thread (transferred), and the flag raised on each answer. */
  forwardPort: MessagePort;
  forwardSignal: SharedArrayBuffer;
  /** Raised (1) by the main thread the moment it drains: every thread's requests see it at once, before the drain message. */
  drainFlag: SharedArrayBuffer;
  /** The edition to serve: each thread opens it itself (its columns are views of the memory map). */
  edition: EditionToServe;
  slots: SharedArrayBuffer;
  /** The plans in force (PLANS_FILE's), which every key's limits are read from: the same on every thread. */
  plans: PlansMessage;
  keys: KeyRecord[];
  assignments: [string, number][];
  service: { version: string; commit: string };
}

/** The main thread's answer to a thread's standing screen (`error` when it could not be run). */
export interface ScreenAnswer {
  type: 'screen-result';
  id: number;
  total?: number;
  rows?: number[];
  error?: string;
}

export type ToThread =
  | { type: 'edition'; version: string }
  | { type: 'keys'; keys: KeyRecord[]; assignments: [string, number][] }
  /** Whether the usage counts reach the state folder (what /readyz tells on every thread). */
  | { type: 'durable'; durable: boolean }
  | ScreenAnswer
  | { type: 'drain' };

export type FromThread =
  /** Listening: its request figures and stream figures, shared memory the main thread reads for /metrics. */
  | { type: 'listening'; requests: RequestStorage; streams: Float64Array }
  /** A standing screen to run on the main thread's pool, over the edition `origin` names. */
  | { type: 'screen'; id: number; origin: DatasetOrigin; market: Market; q: ScreenQueryMessage }
  /** A standing screen whose run was answered no longer stands on it (once per answered run). */
  | { type: 'screen-release'; origin: DatasetOrigin; market: Market; q: ScreenQueryMessage }
  | { type: 'swapped'; version: string }
  /** The thread closed the edition: no request of it reads that version any longer. */
  | { type: 'released'; version: string }
  | { type: 'figures'; meter: MeterState }
  | { type: 'drained' }
  | { type: 'failed'; message: string };

/** A request a serving thread hands to the main thread: what its uWS read of it. */
export interface ForwardRequest {
  id: number;
  /** As sent (uWS keeps the case). */
  method: string;
  /** Path and query as they came (not decoded). */
  target: string;
  /** Every field as uWS read it (names in lower case), duplicates kept. */
  headers: [string, string][];
  /** The client's address. */
  address: string;
  body: Uint8Array | null;
}

/** The main thread's answer, to be sent as it is (`failure`: there was none). */
export interface ForwardAnswer {
  id: number;
  status: number;
  statusText: string;
  /** Every field but those of one hop and those uWS writes itself (Date, Content-Length). */
  headers: [string, string][];
  body: Uint8Array;
  /** The main thread closes the connection after it (Connection: close). */
  close: boolean;
  failure?: string;
}
