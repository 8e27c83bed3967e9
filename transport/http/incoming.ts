// A request's headers read once, in one pass, into one module-level object reused by every
// request: no allocation but the strings uWS hands over.

import type { HttpRequest } from 'uWebSockets.js';

/** Stands for two different keys (X-API-Key twice, or it and a Bearer token): no key at all. */
export const AMBIGUOUS_KEY = '\u0000ambiguous';

/** The request headers the API reads, gathered in one pass over them (uWS's getHeader sees only the first of duplicates). */
export interface Incoming {
  key: string | null;
  accept: string;
  acceptEncoding: string;
  ifNoneMatch: string;
  origin: string;
  requestId: string;
  hosts: number;
  lengths: number;
}

/** The one object `readHeaders` fills: valid until the next request's read (copy what outlives the handler). */
const incoming: Incoming = {
  key: null,
  accept: '',
  acceptEncoding: '',
  ifNoneMatch: '',
  origin: '',
  requestId: '',
  hosts: 0,
  lengths: 0,
};

const presentKey = (value: string): void => {
  incoming.key = incoming.key !== null && incoming.key !== value ? AMBIGUOUS_KEY : value;
};
/** Repeated list headers are one list (RFC 9110 §5.3). */
const joined = (had: string, value: string): string => (had === '' ? value : `${had}, ${value}`);

/** One hoisted callback: no closure made per request. */
function readHeader(name: string, value: string): void {
  switch (name) {
    case 'x-api-key':
      presentKey(value);
      break;
    case 'authorization':
      if (value.length > 7 && value.slice(0, 7).toLowerCase() === 'bearer ') presentKey(value.slice(7).trim());
      break;
    case 'accept':
      incoming.accept = joined(incoming.accept, value);
      break;
    case 'accept-encoding':
      incoming.acceptEncoding = joined(incoming.acceptEncoding, value);
      break;
    case 'if-none-match':
      incoming.ifNoneMatch = joined(incoming.ifNoneMatch, value);
      break;
    case 'origin':
      incoming.origin = value;
      break;
    case 'x-request-id':
      incoming.requestId = value;
      break;
    case 'host':
      incoming.hosts++;
      break;
    case 'content-length':
      incoming.lengths++;
      break;
  }
}

/** Reads `req`'s headers into the shared `Incoming` (reset first) and returns it. */
export function readHeaders(req: HttpRequest): Incoming {
  incoming.key = null;
  incoming.accept = incoming.acceptEncoding = incoming.ifNoneMatch = incoming.origin = incoming.requestId = '';
  incoming.hosts = incoming.lengths = 0;
  req.forEach(readHeader);
  return incoming;
}

/** The 401's detail for the key that was presented (`null` or empty: none). */
export function unauthorizedDetail(presented: string | null): string {
  if (presented === null || presented === '') return 'no key: send X-API-Key or Authorization: Bearer';
  return presented === AMBIGUOUS_KEY
    ? 'two different keys were sent (X-API-Key and/or Authorization)'
    : 'the key is invalid or disabled';
}
