// The HTTP server's options from the settings: one composition for the main thread and every other
// serving thread, so a setting reaches each the same way. A serving thread receives the settings
// themselves (`ThreadSettings`, derived from their declaration), not a list kept beside them.

import type { Values } from '../loaders/config/read-settings.js';
import type { SERVER_SETTINGS } from '../loaders/config/settings.js';
import type { Plans } from '../engine/plans.js';
import { cacheBudgets } from '../transport/caches/caches.js';
import { buildOpenApi } from '../transport/openapi.js';
import type { ServerOptions } from '../transport/server.js';

/** Every server setting, checked (`startProgram(SERVER).values`). */
export type ServerSettings = Values<typeof SERVER_SETTINGS>;

/**
 * The settings as a serving thread receives them: every server setting but PLANS_FILE's value
 * (the plans in force cross as a message of their own, `ThreadStart.plans`).
 */
export type ThreadSettings = Omit<ServerSettings, 'plansFile'>;

/** `settings` as they are posted to another serving thread. */
export function threadSettingsOf(settings: ServerSettings): ThreadSettings {
  const { plansFile: _posted, ...rest } = settings;
  return rest;
}

/**
 * What a thread brings beside its settings: its guard, state and logs, the plans in force, the
 * port (the main thread's setting; the port it listens on for the others), and what only some
 * threads have (the pool, /metrics, the dashboard or its forwarding, the shared port).
 */
export type ServerParts = Omit<
  ServerOptions,
  'host' | 'openapi' | 'caches' | 'busyPollMs' | 'exportStallMs' | 'exportsPerKey' | 'streamIdleSeconds' | 'corsOrigins'
> & { plans: Plans };

/** The server's options: those the settings decide, then the thread's own parts. */
export function serverOptionsFrom(settings: ThreadSettings, parts: ServerParts): ServerOptions {
  const { plans, ...own } = parts;
  return {
    host: settings.host,
    caches: cacheBudgets(settings),
    busyPollMs: settings.busyPollMs,
    exportStallMs: settings.exportStallS * 1000,
    exportsPerKey: settings.exportsPerKey,
    streamIdleSeconds: settings.streamIdleSeconds,
    corsOrigins: settings.corsOrigins,
    openapi: () => JSON.stringify(buildOpenApi(plans)), // made at its first request, not at start
    ...own,
  };
}
