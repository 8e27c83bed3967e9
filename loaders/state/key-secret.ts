// Making API keys `mdq_<id>_<secret>`: random base62 id and secret, and the hash kept instead.

import { createHash, randomBytes } from 'node:crypto';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 12 base62 characters: public, names the key in the keys command and logs. */
export const ID_LENGTH = 12;
/** 32 base62 characters ≈ 190 random bits (the floor is 128). */
export const SECRET_LENGTH = 32;

/** `length` uniformly random base62 characters from the system CSPRNG. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      // 248 = 4 × 62: dropping bytes above it keeps every character equally likely.
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}

/** A new key id. */
export function newKeyId(): string {
  return randomBase62(ID_LENGTH);
}

/** A new secret. */
export function newSecret(): string {
  return randomBase62(SECRET_LENGTH);
}

/** The key text handed to the operator once. */
export function formatKey(id: string, secret: string): string {
  return `mdq_${id}_${secret}`;
}

/**
 * SHA-256 of a secret: what is stored. Must match `secretHash` in transport/guard/api-key.ts
 * (the layers do not import each other; a test checks the two agree).
 */
export function hashSecret(secret: string): Buffer {
  return createHash('sha256').update(secret, 'latin1').digest();
}
