// The operator's password as a salted scrypt hash (node:crypto): hashing, checking, generating.

import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from './key-secret.js';

/** What is stored of the password: never the password itself. */
export interface PasswordHash {
  readonly algo: 'scrypt';
  /** scrypt cost parameters used for this hash (kept so they can be raised later). */
  readonly N: number;
  readonly r: number;
  readonly p: number;
  readonly salt: Uint8Array;
  readonly hash: Uint8Array;
  /** ISO 8601 instant the password was set: sessions signed in before it end. */
  readonly set: string;
}

/** 2^15 × 8 × 128 B = 32 MiB and ~50–100 ms a check: slow for a guesser, fine for a sign-in. */
export const SCRYPT = { N: 1 << 15, r: 8, p: 1 } as const;
const KEY_LENGTH = 32;
/** Above scrypt's own need (128·N·r) so node's default 32 MiB cap does not refuse it. */
const MAX_MEM = 64 * 1024 * 1024;
/** Shortest password `set-password` accepts. */
export const MIN_PASSWORD_LENGTH = 12;

function derive(password: string, salt: Uint8Array, N: number, r: number, p: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, { N, r, p, maxmem: MAX_MEM }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** A fresh random salt and the scrypt hash of `password` (runs on libuv's thread pool). */
export async function hashPassword(password: string, now: Date = new Date()): Promise<PasswordHash> {
  const salt = randomBytes(16);
  const { N, r, p } = SCRYPT;
  return { algo: 'scrypt', N, r, p, salt, hash: await derive(password, salt, N, r, p), set: now.toISOString() };
}

/** True when `password` hashes to `stored` (constant-time comparison). */
export async function passwordMatches(password: string, stored: PasswordHash): Promise<boolean> {
  if (stored.algo !== 'scrypt') return false;
  const key = await derive(password, stored.salt, stored.N, stored.r, stored.p);
  return key.length === stored.hash.length && timingSafeEqual(key, stored.hash);
}

/** A generated password: 24 base62 characters (≈143 random bits). */
export function generatePassword(): string {
  return randomBase62(24);
}
