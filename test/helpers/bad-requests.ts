// The HTTP bad-input corpus: raw request bytes and what the server answers directly (uWebSockets.js
// v20.30 decides the framing cases) and through deploy/nginx.conf.

/** What one raw request gets. */
export type Expected =
  /** An answer with this status; with `code`, a problem+json body of that code. */
  | { status: number; code?: string; close?: boolean }
  /** The connection closed at once, without a byte. */
  | 'closed'
  /** Not a byte until uWS's idle timeout closes the connection (10 s, checked every 4 s). */
  | 'idle-close'
  /** Some bytes, then the close: nginx's HTTP/0.9 answer, a body without a status line. */
  | 'http-0.9';

export interface BadRequest {
  name: string;
  /** The request's bytes; `{key}` stands for a valid API key. */
  text: string;
  direct: Expected;
  viaNginx: Expected;
}

const fields = (n: number): string => Array.from({ length: n }, (_, i) => `X-F${i}: v\r\n`).join('');
const get = (target: string, extra = ''): string =>
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: {key}\r\n${extra}\r\n`;
const KLINES = '/api/v1/ashare/klines/sh600001';
const MALFORMED = { status: 400, code: 'malformed_request', close: true } as const;
const INVALID = { status: 400, code: 'invalid_parameter' } as const;

/** Heads that break HTTP/1.1's framing rules (RFC 9112). */
export const FRAMING: BadRequest[] = [
  {
    name: 'two Content-Length fields that differ',
    text: 'GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nContent-Length: 5\r\n\r\n',
    direct: MALFORMED,
    viaNginx: MALFORMED,
  },
  {
    name: 'two equal Content-Length fields',
    text: 'GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n',
    direct: MALFORMED,
    viaNginx: MALFORMED,
  },
  {
    name: 'two Content-Length fields on an API route',
    text: get(`${KLINES}?limit=1`, 'Content-Length: 0\r\nContent-Length: 1\r\n'),
    direct: MALFORMED,
    viaNginx: MALFORMED,
  },
  {
    name: 'two Host fields',
    text: 'GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n',
    direct: MALFORMED,
    viaNginx: MALFORMED,
  },
  // A HEAD answer has no body to read the code from: the status and the close.
  {
    name: 'HEAD with two Host fields (the answer closes too)',
    text: 'HEAD /api/v1/markets HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n',
    direct: { status: 400, close: true },
    viaNginx: { status: 400, close: true },
  },
  {
    name: 'two Host fields on an API route',
    text: get(`${KLINES}?limit=1`, 'Host: b\r\n'),
    direct: MALFORMED,
    viaNginx: MALFORMED,
  },
  {
    name: 'Content-Length that is not a number',
    text: 'GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n',
    direct: 'closed',
    viaNginx: MALFORMED,
  },
  {
    name: 'Content-Length with Transfer-Encoding',
    text: 'GET /healthz HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
    direct: 'closed',
    viaNginx: MALFORMED,
  },
  { name: 'no Host', text: 'GET /healthz HTTP/1.1\r\n\r\n', direct: 'idle-close', viaNginx: MALFORMED },
  { name: 'a request line that is one word', text: 'GARBAGE\r\n\r\n', direct: 'idle-close', viaNginx: MALFORMED },
  {
    name: 'a lower-case method',
    text: 'get /healthz HTTP/1.1\r\nHost: a\r\n\r\n',
    direct: 'closed',
    viaNginx: MALFORMED,
  },
  {
    name: 'two spaces in the request line',
    text: 'GET  /healthz HTTP/1.1\r\nHost: a\r\n\r\n',
    direct: 'idle-close',
    viaNginx: { status: 200 },
  },
  {
    name: 'HTTP/2.0 in the request line',
    text: 'GET /healthz HTTP/2.0\r\nHost: a\r\n\r\n',
    direct: 'idle-close',
    viaNginx: { status: 505, code: 'http_version_not_supported', close: true },
  },
  {
    name: 'an HTTP/0.9 request line with fields',
    text: 'GET /healthz\r\nHost: a\r\n\r\n',
    direct: 'idle-close',
    viaNginx: 'http-0.9',
  },
  {
    name: 'a control byte in the target',
    text: 'GET /heal\x01thz HTTP/1.1\r\nHost: a\r\n\r\n',
    direct: 'idle-close',
    viaNginx: MALFORMED,
  },
  {
    name: 'NUL in a field value',
    text: 'GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: b\0c\r\n\r\n',
    direct: 'idle-close',
    viaNginx: MALFORMED,
  },
  {
    name: 'a bare CR in a field value',
    text: 'GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: b\rc\r\n\r\n',
    direct: 'idle-close',
    viaNginx: MALFORMED,
  },
  // RFC 9112 §2.2 lets a recipient take a bare LF as a line end: nginx does.
  {
    name: 'a bare LF between fields',
    text: 'GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: b\nX-B: c\r\n\r\n',
    direct: 'idle-close',
    viaNginx: { status: 200 },
  },
  {
    name: 'obs-fold (a continuation line)',
    text: 'GET /healthz HTTP/1.1\r\nHost: a\r\nX-A: b\r\n c\r\n\r\n',
    direct: 'idle-close',
    viaNginx: MALFORMED,
  },
  {
    name: 'a space before the colon',
    text: 'GET /healthz HTTP/1.1\r\nHost: a\r\nX-A : b\r\n\r\n',
    direct: 'idle-close',
    viaNginx: MALFORMED,
  },
  // nginx drops a field it cannot read (ignore_invalid_headers) and forwards the rest.
  {
    name: 'a field line without a colon',
    text: 'GET /healthz HTTP/1.1\r\nHost: a\r\nXA\r\n\r\n',
    direct: 'idle-close',
    viaNginx: { status: 200 },
  },
  {
    name: 'an absolute-form target',
    text: 'GET http://a/healthz HTTP/1.1\r\nHost: a\r\n\r\n',
    direct: 'idle-close',
    viaNginx: { status: 200 },
  },
  { name: 'CONNECT', text: 'CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n', direct: 'idle-close', viaNginx: MALFORMED },
  // uWS reads at most 48 fields; nginx adds X-Request-Id when the client sends none, and forwards
  // every field, so uWS's silence reaches the client as nginx's 502 after the idle close.
  {
    name: '47 header fields',
    text: `GET /healthz HTTP/1.1\r\nHost: a\r\n${fields(46)}\r\n`,
    direct: { status: 200 },
    viaNginx: { status: 200 },
  },
  {
    name: '48 header fields (the most uWS reads)',
    text: `GET /healthz HTTP/1.1\r\nHost: a\r\n${fields(47)}\r\n`,
    direct: { status: 200 },
    viaNginx: { status: 502 },
  },
  {
    name: '49 header fields',
    text: `GET /healthz HTTP/1.1\r\nHost: a\r\n${fields(48)}\r\n`,
    direct: 'idle-close',
    viaNginx: { status: 502 },
  },
];

/** Well-framed requests with bad input for the API: each a problem answer, the connection kept. */
export const API_INPUT: BadRequest[] = [
  { name: 'malformed percent-encoding', text: get(`${KLINES}?limit=%zz`), direct: INVALID, viaNginx: INVALID },
  { name: '%FF (not UTF-8) in a value', text: get(`${KLINES}?adj=%ff`), direct: INVALID, viaNginx: INVALID },
  { name: 'NUL in a value', text: get(`${KLINES}?limit=%00`), direct: INVALID, viaNginx: INVALID },
  { name: 'a parameter given twice', text: get(`${KLINES}?limit=5&limit=6`), direct: INVALID, viaNginx: INVALID },
  { name: 'an unknown parameter', text: get(`${KLINES}?bogus=1`), direct: INVALID, viaNginx: INVALID },
  { name: 'a parameter without a name', text: get(`${KLINES}?=5`), direct: INVALID, viaNginx: INVALID },
  { name: 'fields=__proto__', text: get(`${KLINES}?fields=__proto__`), direct: INVALID, viaNginx: INVALID },
  // A limit over the plan's rows per call is clamped to it (not refused), however many digits it has.
  {
    name: 'a 3,000-digit limit',
    text: get(`${KLINES}?limit=${'9'.repeat(3000)}`),
    direct: { status: 200 },
    viaNginx: { status: 200 },
  },
  { name: 'limit=1e309', text: get(`${KLINES}?limit=1e309`), direct: INVALID, viaNginx: INVALID },
  {
    name: 'a date that is not a calendar day',
    text: get(`${KLINES}?start=2024-02-30`),
    direct: INVALID,
    viaNginx: INVALID,
  },
  {
    name: 'NUL as the symbol',
    text: get('/api/v1/ashare/klines/%00'),
    direct: { status: 404, code: 'unknown_symbol' },
    viaNginx: MALFORMED,
  },
  {
    name: 'a raw byte over 0x7F in the path',
    text: get('/api/v1/ashare/klines/sh\xff600001'),
    direct: { status: 404, code: 'unknown_symbol' },
    viaNginx: { status: 404, code: 'unknown_symbol' },
  },
  // nginx resolves dot segments before proxying (RFC 3986 §5.2.4); uWS matches the path as sent.
  {
    name: '.. in the path',
    text: get('/api/v1/../healthz'),
    direct: { status: 404, code: 'not_found' },
    viaNginx: { status: 404, code: 'not_found' },
  },
  {
    name: 'a batch over the plan',
    text: get(`/api/v1/ashare/klines?symbols=${Array.from({ length: 500 }, (_, i) => `s${i}`).join(',')}`),
    direct: { status: 400, code: 'batch_too_large' },
    viaNginx: { status: 400, code: 'batch_too_large' },
  },
  {
    name: 'two different keys',
    text: get('/api/v1/markets', 'X-API-Key: mdq_other\r\n'),
    direct: { status: 401, code: 'unauthorized' },
    viaNginx: { status: 401, code: 'unauthorized' },
  },
  {
    name: 'an empty Bearer token',
    text: 'GET /api/v1/markets HTTP/1.1\r\nHost: a\r\nAuthorization: Bearer \r\n\r\n',
    direct: { status: 401, code: 'unauthorized' },
    viaNginx: { status: 401, code: 'unauthorized' },
  },
  {
    name: 'a 300-byte key',
    text: get('/api/v1/markets').replace('{key}', 'k'.repeat(300)),
    direct: { status: 401, code: 'unauthorized' },
    viaNginx: { status: 401, code: 'unauthorized' },
  },
  {
    name: 'DELETE',
    text: 'DELETE /api/v1/markets HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n',
    direct: { status: 405, code: 'method_not_allowed' },
    viaNginx: { status: 405, code: 'method_not_allowed' },
  },
  {
    name: 'TRACE',
    text: 'TRACE / HTTP/1.1\r\nHost: a\r\n\r\n',
    direct: { status: 404, code: 'not_found' },
    viaNginx: { status: 405, code: 'method_not_allowed', close: true },
  },
  // Lenient on preferences: a header the server cannot read is as if not sent.
  {
    name: 'an unreadable Accept',
    text: get('/api/v1/markets', 'Accept: ;;;,,,q=zz\r\n'),
    direct: { status: 200 },
    viaNginx: { status: 200 },
  },
  {
    name: 'an unreadable Accept-Encoding',
    text: get('/api/v1/markets', 'Accept-Encoding: br;q=2, gzip;q=-1, *;q=abc\r\n'),
    direct: { status: 200 },
    viaNginx: { status: 200 },
  },
  {
    name: 'an unterminated If-None-Match',
    text: get('/api/v1/markets', 'If-None-Match: "open\r\n'),
    direct: { status: 200 },
    viaNginx: { status: 200 },
  },
  {
    name: 'a DEL byte in X-Request-Id',
    text: get('/api/v1/markets', 'X-Request-Id: a\x7fb\r\n'),
    direct: { status: 200 },
    viaNginx: { status: 200 },
  },
];
