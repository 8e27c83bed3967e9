// THREADS ≥ 2: the other serving threads, started once the main thread listens, each with the main
// thread's settings (all of them, as `ThreadSettings`), the edition it serves, the keys and their
// shared slots, the plans in force; their dashboard and /metrics forwarded to the main thread.

import { randomBytes } from 'node:crypto';
import type { KeyRecord, Plans } from '../engine/plans.js';
import { PART_READER_LIMITS } from '../loaders/edition/layout.js';
import type { ServiceInfo } from '../loaders/service-info.js';
import type { Guard } from '../transport/guard/guard.js';
import { acceptForwarded } from '../transport/http/forwarded.js';
import type { RunningServer } from '../transport/server.js';
import type { PooledScreens } from '../transport/stream/screen-runner.js';
import type { EditionToServe } from '../transport/threads/messages.js';
import { ServingThreads, type ThreadFailure } from '../transport/threads/serving-threads.js';
import { type ServerSettings, threadSettingsOf } from './server-options.js';

export interface OtherThreadsParts {
  settings: ServerSettings;
  /** The main thread's server: its port (shared), and its loopback port for what the others forward. */
  server: RunningServer;
  edition: EditionToServe;
  guard: Guard;
  keys: KeyRecord[];
  plans: Plans;
  service: ServiceInfo;
  /** Where every thread's standing screens run: the main thread's pool. */
  screens: PooledScreens;
  failed: ThreadFailure;
}

/** Starts `count` serving threads on the main thread's port; resolves once every one listens. */
export function startOtherThreads(count: number, p: OtherThreadsParts): Promise<ServingThreads> {
  const token = randomBytes(16).toString('hex'); // vouches for the client address a forwarded request carries
  acceptForwarded(token);
  return ServingThreads.start(
    count,
    {
      settings: threadSettingsOf(p.settings),
      port: p.server.port,
      edition: p.edition,
      slots: p.guard.slots.buffer,
      plans: p.plans.toMessage(),
      keys: p.keys,
      assignments: p.guard.assignments(),
      service: p.service,
    },
    { listenPort: p.server.forwardPort!, token },
    p.failed,
    { screens: p.screens, resourceLimits: PART_READER_LIMITS },
  );
}
