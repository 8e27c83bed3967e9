// The key table in Redis, shared by every instance: records by id (hashes only) and a change counter.

import type { Redis } from 'ioredis';
import { type KeyRecord, wellFormedPlanName } from '../../engine/plans.js';

/** A record as Redis keeps it: JSON with the hash in hex. */
export function encodeRecord(r: KeyRecord): string {
  return JSON.stringify({
    id: r.id,
    plan: r.plan,
    org: r.org,
    created: r.created,
    disabled: r.disabled,
    hash: Buffer.from(r.hash).toString('hex'),
  });
}

/** The record of `text`, or null when it is not one (written by something else): skipped, never trusted. */
export function decodeRecord(text: string): KeyRecord | null {
  try {
    const v = JSON.parse(text) as Record<string, unknown>;
    if (
      typeof v.id !== 'string' ||
      typeof v.plan !== 'string' ||
      !wellFormedPlanName(v.plan) ||
      typeof v.org !== 'string' ||
      typeof v.created !== 'string' ||
      typeof v.disabled !== 'boolean'
    )
      return null;
    if (typeof v.hash !== 'string' || !/^[0-9a-f]{64}$/.test(v.hash)) return null;
    return {
      id: v.id,
      plan: v.plan,
      org: v.org,
      created: v.created,
      disabled: v.disabled,
      hash: new Uint8Array(Buffer.from(v.hash, 'hex')),
    };
  } catch {
    return null;
  }
}

/** Every instance's key table: a hash `<prefix>keys` (id → record) and a counter `<prefix>keys:rev` bumped with every write. */
export class RedisKeyTable {
  constructor(
    private readonly redis: Redis,
    private readonly prefix = 'mdq:',
  ) {}

  /** The change counter (0 before any write). */
  async rev(): Promise<number> {
    return Number((await this.redis.get(`${this.prefix}keys:rev`)) ?? 0);
  }

  /** Every record (unreadable entries skipped). */
  async list(): Promise<KeyRecord[]> {
    const all = await this.redis.hgetall(`${this.prefix}keys`);
    const out: KeyRecord[] = [];
    for (const text of Object.values(all)) {
      const r = decodeRecord(text);
      if (r !== null) out.push(r);
    }
    return out;
  }

  /** Writes `records` and bumps the counter, in one transaction. */
  async put(records: readonly KeyRecord[]): Promise<void> {
    if (records.length === 0) return;
    const fields: string[] = [];
    for (const r of records) fields.push(r.id, encodeRecord(r));
    const results = await this.redis
      .multi()
      .hset(`${this.prefix}keys`, ...fields)
      .incr(`${this.prefix}keys:rev`)
      .exec();
    const failed = results?.find(([error]) => error !== null);
    if (results === null || failed !== undefined)
      throw failed?.[0] ?? new Error('the key table transaction was discarded');
  }
}
