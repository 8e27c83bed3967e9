// REDIS_URL: limits and keys shared by every instance. ioredis and the Redis parts are loaded only
// when it is set (a server without it starts without them); Redis unreachable at start is an
// operator's mistake (exit 2, before the data load); a lost connection is logged once every ten
// seconds while limited keys get 503 limits_unavailable.

import { SettingError } from '../loaders/config/read-settings.js';

/** What REDIS_URL brings: the connection, the limits store, and the shared key table's parts. */
export type SharedLimits = Awaited<ReturnType<typeof connectSharedLimits>>;

/** Connects to `redisUrl`; `down` hears a lost connection (already thinned to one report every ten seconds). */
export async function connectSharedLimits(redisUrl: string, down: (error: Error) => void) {
  const parts = {
    ...(await import('../loaders/state/redis-connect.js')),
    ...(await import('../loaders/state/key-mirror.js')),
    ...(await import('../loaders/state/redis-key-table.js')),
    ...(await import('../transport/guard/redis-limits.js')),
  };
  let loggedAt = -Infinity;
  /** ioredis reports every failed reconnect: one line every ten seconds is enough. */
  const thinned = (error: Error): void => {
    const t = performance.now();
    if (t - loggedAt >= 10_000) (loggedAt = t), down(error);
  };
  const redis = await parts.connectRedis(redisUrl, thinned).catch((error: unknown) => {
    throw error instanceof parts.RedisUnreachable ? new SettingError(error.message) : error;
  });
  return {
    redis,
    limits: new parts.RedisLimits(redis),
    keyTable: () => new parts.RedisKeyTable(redis),
    KeyMirror: parts.KeyMirror,
    /** A failure of the shared store after start (the key mirror's), reported like a lost connection. */
    down: thinned,
  };
}
