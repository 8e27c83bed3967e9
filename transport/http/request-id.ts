// X-Request-Id: the client's when it is one (≤ 128 visible ASCII characters), else a new one.

import { randomBytes } from 'node:crypto';

const VISIBLE = /^[\x21-\x7e]{1,128}$/;
/** Unique per process start; the counter makes each id of this process unique. */
const PREFIX = randomBytes(6).toString('hex');
let counter = 0;

/** The id of a request that sent `given` ('' when it sent none). */
export function requestIdOf(given: string): string {
  return given !== '' && VISIBLE.test(given) ? given : `${PREFIX}-${(++counter).toString(36)}`;
}
