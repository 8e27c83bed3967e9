// Reading a presented API key `mdq_<id>_<secret>` and checking its secret against a stored hash.

import { createHash, timingSafeEqual } from 'node:crypto';

const PREFIX = 'mdq_';
/** Sizes the keys command issues are larger (12-char id, 32-char secret); these are the floors. */
const MIN_ID = 8;
const MIN_SECRET = 22; // 22 base62 characters carry just over 128 bits
const MAX_KEY = 200;

function isAlnum(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (!((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) return false;
  }
  return true;
}

/** The parts of a well-formed key, or null. No hashing happens here. */
export function parseApiKey(presented: string): { id: string; secret: string } | null {
  if (presented.length > MAX_KEY || !presented.startsWith(PREFIX)) return null;
  const cut = presented.indexOf('_', PREFIX.length);
  if (cut - PREFIX.length < MIN_ID || presented.length - cut - 1 < MIN_SECRET) return null;
  if (!isAlnum(presented, PREFIX.length, cut) || !isAlnum(presented, cut + 1, presented.length)) return null;
  return { id: presented.slice(PREFIX.length, cut), secret: presented.slice(cut + 1) };
}

/**
 * SHA-256 of a secret. A plain hash suffices because secrets carry at least 128 random
 * bits (no dictionary to attack); it must match `hashSecret` in loaders/state/key-secret.ts.
 */
export function secretHash(secret: string): Buffer {
  return createHash('sha256').update(secret, 'latin1').digest();
}

/** True when `secret` hashes to `stored`, compared in constant time. */
export function secretMatches(secret: string, stored: Uint8Array): boolean {
  const h = secretHash(secret);
  return stored.length === h.length && timingSafeEqual(h, stored);
}
