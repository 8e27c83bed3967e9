// What the main thread and the other serving threads tell each other (THREADS ≥ 2).

import type { DatasetMessage } from '../../engine/dataset/dataset-message.js';
import type { KeyRecord, PlansMessage } from '../../engine/plans.js';
import type { MeterState } from '../admin/meter.js';
import type { RequestSnapshot } from '../metrics/request-metrics.js';

/** The settings a serving thread needs (a subset of the server's, as checked values). */
export interface ThreadSettings {
  host: string;
  quotaTz: string;
  klineTextCacheMb: number;
  asOfCacheMb: number;
  responseCacheMb: number;
  busyPollMs: number;
  drainGraceMs: number;
  corsOrigins: string;
  redisUrl: string | null;
  accessLog: boolean;
  logLevel: string;
}

/** A serving thread's start: where to listen, the data, the keys and their shared slots. */
export interface ThreadStart {
  /** 1, 2, …: the main thread is 0. */
  thread: number;
  settings: ThreadSettings;
  port: number;
  /** The main thread's loopback port for the dashboard and /metrics, and the token that vouches for a forward. */
  forwardPort: number;
  forwardToken: string;
  dataset: DatasetMessage;
  slots: SharedArrayBuffer;
  /** The plans in force (PLANS_FILE's), which every key's limits are read from: the same on every thread. */
  plans: PlansMessage;
  keys: KeyRecord[];
  assignments: [string, number][];
  openapi: string;
  service: { version: string; commit: string };
}

export type ToThread =
  | { type: 'dataset'; dataset: DatasetMessage }
  | { type: 'keys'; keys: KeyRecord[]; assignments: [string, number][] }
  | { type: 'figures' }
  | { type: 'drain' };

export type FromThread =
  | { type: 'listening' }
  | { type: 'swapped'; version: string }
  | { type: 'figures'; requests: RequestSnapshot; meter: MeterState }
  | { type: 'drained' }
  | { type: 'failed'; message: string };
