// The Redis connection shared limits and the key table use (REDIS_URL): fail fast, never queue.

import { Redis } from 'ioredis';

/**
 * A command fails at once while the connection is down (no offline queue, no retries), and
 * within COMMAND_TIMEOUT_MS when Redis stops answering. A request gives up sooner (0.5 s,
 * transport/guard/redis-limits.ts) and answers 503 limits_unavailable; this longer bound lets
 * it still hear a late reply (to refund rows that reply says were charged). ioredis
 * reconnects by itself, every 50–500 ms.
 */
const COMMAND_TIMEOUT_MS = 2000;
const CONNECT_TIMEOUT_MS = 2000;

/** `url` without its password, for messages. */
export function redactedRedisUrl(url: string): string {
  const u = new URL(url);
  if (u.password !== '') u.password = '***';
  return u.toString();
}

/** The server could not reach Redis at start. */
export class RedisUnreachable extends Error {
  constructor(url: string, reason: string) {
    super(`cannot reach Redis at ${redactedRedisUrl(url)} (REDIS_URL): ${reason}`);
  }
}

/**
 * Connects to `url` and checks Redis answers (PING), or throws RedisUnreachable. Later
 * connection errors are handed to `onError` (ioredis keeps reconnecting).
 */
export async function connectRedis(url: string, onError: (error: Error) => void): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: COMMAND_TIMEOUT_MS,
    connectTimeout: CONNECT_TIMEOUT_MS,
    retryStrategy: (attempt) => Math.min(50 * attempt, 500),
  });
  let first: Error | null = null;
  const noteFirst = (error: Error): void => void (first ??= error);
  redis.on('error', noteFirst);
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new RedisUnreachable(url, (first ?? (error as Error)).message);
  }
  redis.off('error', noteFirst);
  redis.on('error', onError);
  return redis;
}
