// The one catalogue of API errors (code, status, title, wording, the headers each carries) and their RFC 9457 answers.

/** The media type of every problem answer. */
export const PROBLEM_TYPE = 'application/problem+json';

/** What the catalogue says of one code. */
export interface ProblemEntry {
  status: number;
  title: string;
  /** The detail when an answer has nothing of its own to say (a code worded one way everywhere). */
  detail?: string;
  /** Headers the code always carries, the same on every answer. */
  headers?: Record<string, string>;
  /** Retry-After: these whole seconds on every answer, or `given` per answer (`retryAfter`, rounded up to a whole second, at least 1). */
  retryAfter?: number | 'given';
  /** Allow: the methods served, given per answer (`allow`). */
  allow?: 'given';
  /** The connection is closed after the answer (`Connection: close`). */
  close?: true;
}

/** Every problem `code` the API answers, with its status, title and what else each answer of it carries. */
export const PROBLEMS = {
  invalid_parameter: { status: 400, title: 'Bad Request' },
  /** Two Host or two Content-Length fields (RFC 9112 §3.2, §6.3): answered, then the connection closed. */
  malformed_request: { status: 400, title: 'Bad Request', close: true },
  unknown_market: { status: 400, title: 'Bad Request' },
  batch_too_large: { status: 400, title: 'Bad Request' },
  /** A stream subscription past the plan's subscriptions per connection: an `error` message, never an HTTP answer. */
  too_many_subscriptions: { status: 400, title: 'Bad Request' },
  too_many_exports: { status: 429, title: 'Too Many Requests', retryAfter: 1 },
  /** RFC 9110 §11.6.1: a 401 names the scheme that would be accepted (the key as a Bearer token, or X-API-Key). */
  unauthorized: { status: 401, title: 'Unauthorized', headers: { 'www-authenticate': 'Bearer realm="mdq"' } },
  csrf_failed: { status: 403, title: 'Forbidden' },
  /** The key's plan does not include the endpoint (an export on a plan whose export allowance is 0). */
  not_in_plan: { status: 403, title: 'Forbidden' },
  /** A dashboard request whose Host it does not answer (DNS rebinding, transport/admin/host-check.ts). */
  forbidden_host: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not Found' },
  unknown_symbol: { status: 404, title: 'Not Found' },
  macro_not_ready: { status: 404, title: 'Not Found' },
  /** RFC 9110 §15.5.6: a 405 lists the methods the path serves. */
  method_not_allowed: { status: 405, title: 'Method Not Allowed', allow: 'given' },
  /** Depends on Accept as the answer it stands for does: a cache keys it by Accept too (RFC 9110 §12.5.5). */
  not_acceptable: { status: 406, title: 'Not Acceptable', headers: { vary: 'Accept' } },
  /** GET /api/v1/stream without a WebSocket upgrade (RFC 9110 §15.5.22: names the protocol to switch to). */
  upgrade_required: { status: 426, title: 'Upgrade Required', headers: { upgrade: 'websocket' } },
  /** The seconds until the key's bucket holds a token again (or, on the dashboard's sign-in, until the backoff ends). */
  rate_limited: { status: 429, title: 'Too Many Requests', detail: 'request rate above the plan', retryAfter: 'given' },
  /** The seconds until the key's day resets. */
  quota_exhausted: { status: 429, title: 'Too Many Requests', detail: 'no rows left today', retryAfter: 'given' },
  /** An export larger than the key's export allowance left today; the seconds until the day resets. */
  export_quota_exhausted: { status: 429, title: 'Too Many Requests', retryAfter: 'given' },
  /** Answered by nginx in front (deploy/nginx.conf), never by the server itself: a request head over 16 KiB. */
  header_too_large: { status: 431, title: 'Request Header Fields Too Large' },
  internal_error: {
    status: 500,
    title: 'Internal Server Error',
    detail: 'an unexpected error occurred; it has been logged',
  },
  /** A dashboard write the state folder refused (a full disk): nothing was changed (RFC 4918 §11.5). */
  state_unwritable: { status: 507, title: 'Insufficient Storage' },
  /** Answered by nginx in front, never by the server itself: a request line naming HTTP/2 or later. */
  http_version_not_supported: { status: 505, title: 'HTTP Version Not Supported' },
  /** No `close`: while draining the server closes after every answer, 200s included (not the dashboard's), so that is the server's part, not the code's. */
  shutting_down: { status: 503, title: 'Service Unavailable', detail: 'the server is shutting down', retryAfter: 1 },
  deadline_exceeded: { status: 503, title: 'Service Unavailable', retryAfter: 1 },
  mail_not_configured: { status: 503, title: 'Service Unavailable' },
  not_ready: { status: 503, title: 'Service Unavailable', detail: 'no snapshot is loaded yet', retryAfter: 1 },
  /** The shared limits store (REDIS_URL) cannot be reached: limited keys are refused until it answers again. */
  limits_unavailable: {
    status: 503,
    title: 'Service Unavailable',
    detail: 'the shared limits store cannot be reached; retry shortly',
    retryAfter: 1,
  },
} as const satisfies Record<string, ProblemEntry>;

export type ProblemCode = keyof typeof PROBLEMS;

/** What one answer adds to its code's entry. */
export interface ProblemParams {
  /** The parameter at fault: the body's `param`. */
  param?: string;
  /** Seconds to wait, for a code whose Retry-After is `given` (rounded up, at least 1). */
  retryAfter?: number;
  /** The methods served, for a code whose Allow is `given`. */
  allow?: string;
  /** What the client may have meant (an unknown symbol's nearest codes): the body's `suggestions`. */
  suggestions?: readonly string[];
}

/** One problem answer: its status, the headers it carries (name, value, …), its body, and whether the connection closes after it. */
export interface ProblemAnswer {
  status: number;
  headers: readonly string[];
  body: string;
  close: boolean;
}

const entryOf = (code: ProblemCode): ProblemEntry => PROBLEMS[code];

/** Each code's headers that are the same on every answer (name, value, …), compiled once: an answer without given values shares them. */
const FIXED_HEADERS = Object.fromEntries(
  (Object.keys(PROBLEMS) as ProblemCode[]).map((code) => {
    const entry = entryOf(code);
    const list = Object.entries(entry.headers ?? {}).flat();
    if (typeof entry.retryAfter === 'number') list.push('retry-after', String(entry.retryAfter));
    return [code, Object.freeze(list)];
  }),
) as Record<ProblemCode, readonly string[]>;

/** An error answer: thrown or returned by routes, rendered by respond.ts. */
export class Problem extends Error {
  readonly status: number;
  readonly param?: string;
  readonly suggestions?: readonly string[];
  /** Response headers (name, value, …): the catalogue's own, Retry-After, Allow. */
  readonly headers: readonly string[];
  /** The connection is closed after this answer. */
  readonly close: boolean;

  /**
   * `detail` defaults to the catalogue's wording of the code. `params` is the parameter at
   * fault (a string), or what this answer adds: `param`, the seconds to wait, the methods served.
   */
  constructor(
    readonly code: ProblemCode,
    readonly detail: string = entryOf(code).detail ?? '',
    params?: string | ProblemParams,
  ) {
    super(detail);
    const given: ProblemParams = typeof params === 'string' ? { param: params } : (params ?? {});
    const entry = entryOf(code);
    this.status = entry.status;
    this.param = given.param;
    this.suggestions = given.suggestions;
    this.close = entry.close === true;
    let headers = FIXED_HEADERS[code];
    if (entry.retryAfter === 'given' && given.retryAfter !== undefined)
      headers = [...headers, 'retry-after', String(Math.max(1, Math.ceil(given.retryAfter)))];
    if (entry.allow === 'given' && given.allow !== undefined) headers = [...headers, 'allow', given.allow];
    this.headers = headers;
  }

  /** The RFC 9457 body: type, title, status, code, detail, (for parameters) param, (for an unknown symbol) suggestions and (given a request id) instance. */
  body(instance?: string): string {
    const body: Record<string, unknown> = {
      type: 'about:blank',
      title: PROBLEMS[this.code].title,
      status: this.status,
      code: this.code,
      detail: this.detail,
    };
    if (this.param !== undefined) body.param = this.param;
    if (this.suggestions !== undefined) body.suggestions = this.suggestions;
    if (instance !== undefined) body.instance = instance;
    return JSON.stringify(body);
  }

  /** The whole answer: status, headers, body (`instance` is the request id) and whether to close. */
  answer(instance?: string): ProblemAnswer {
    return { status: this.status, headers: this.headers, body: this.body(instance), close: this.close };
  }
}

/** A 400 invalid_parameter naming the parameter. */
export const badParam = (param: string, detail: string): Problem =>
  new Problem('invalid_parameter', `${param}: ${detail}`, param);

/** HTTP status lines uWS expects ("200 OK"). */
export const STATUS_LINES: Record<number, string> = {
  200: '200 OK',
  204: '204 No Content',
  304: '304 Not Modified',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  406: '406 Not Acceptable',
  426: '426 Upgrade Required',
  429: '429 Too Many Requests',
  431: '431 Request Header Fields Too Large',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
  505: '505 HTTP Version Not Supported',
  507: '507 Insufficient Storage',
};
