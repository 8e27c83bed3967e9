// The one catalogue of API errors (code, status, title) and their RFC 9457 problem bodies.

/** Every problem `code` the API answers, with its status and title. */
export const PROBLEMS = {
  invalid_parameter: { status: 400, title: 'Bad Request' },
  /** Two Host or two Content-Length fields (RFC 9112 §3.2, §6.3): answered, then the connection closed. */
  malformed_request: { status: 400, title: 'Bad Request' },
  unknown_market: { status: 400, title: 'Bad Request' },
  batch_too_large: { status: 400, title: 'Bad Request' },
  /** RFC 9110 §11.6.1: a 401 names the scheme that would be accepted (the key as a Bearer token, or X-API-Key). */
  unauthorized: { status: 401, title: 'Unauthorized', headers: { 'www-authenticate': 'Bearer realm="mdq"' } },
  csrf_failed: { status: 403, title: 'Forbidden' },
  /** A dashboard request whose Host it does not answer (DNS rebinding, transport/admin/host-check.ts). */
  forbidden_host: { status: 403, title: 'Forbidden' },
  not_found: { status: 404, title: 'Not Found' },
  unknown_symbol: { status: 404, title: 'Not Found' },
  macro_not_ready: { status: 404, title: 'Not Found' },
  method_not_allowed: { status: 405, title: 'Method Not Allowed' },
  not_acceptable: { status: 406, title: 'Not Acceptable' },
  rate_limited: { status: 429, title: 'Too Many Requests' },
  quota_exhausted: { status: 429, title: 'Too Many Requests' },
  /** Answered by nginx in front (deploy/nginx.conf), never by the server itself: a request head over 16 KiB. */
  header_too_large: { status: 431, title: 'Request Header Fields Too Large' },
  internal_error: { status: 500, title: 'Internal Server Error' },
  /** Answered by nginx in front, never by the server itself: a request line naming HTTP/2 or later. */
  http_version_not_supported: { status: 505, title: 'HTTP Version Not Supported' },
  shutting_down: { status: 503, title: 'Service Unavailable' },
  deadline_exceeded: { status: 503, title: 'Service Unavailable' },
  mail_not_configured: { status: 503, title: 'Service Unavailable' },
  not_ready: { status: 503, title: 'Service Unavailable' },
  /** The shared limits store (REDIS_URL) cannot be reached: limited keys are refused until it answers again. */
  limits_unavailable: { status: 503, title: 'Service Unavailable' },
} as const satisfies Record<string, { status: number; title: string; headers?: Record<string, string> }>;

export type ProblemCode = keyof typeof PROBLEMS;

/** An error answer: thrown or returned by routes, rendered by respond.ts. */
export class Problem extends Error {
  readonly status: number;
  /** Extra response headers (the catalogue's own, Retry-After on 429/503, Allow on 405). */
  headers: Record<string, string>;

  constructor(
    readonly code: ProblemCode,
    readonly detail: string,
    readonly param?: string,
  ) {
    super(detail);
    const entry: { status: number; headers?: Record<string, string> } = PROBLEMS[code];
    this.status = entry.status;
    this.headers = { ...entry.headers };
  }

  withHeader(name: string, value: string): this {
    this.headers[name] = value;
    return this;
  }

  /** The RFC 9457 body: type, title, status, code, detail, (for parameters) param and (given a request id) instance. */
  body(instance?: string): string {
    const body: Record<string, unknown> = { type: 'about:blank', title: PROBLEMS[this.code].title, status: this.status, code: this.code, detail: this.detail };
    if (this.param !== undefined) body.param = this.param;
    if (instance !== undefined) body.instance = instance;
    return JSON.stringify(body);
  }
}

/** A 400 invalid_parameter naming the parameter. */
export const badParam = (param: string, detail: string): Problem => new Problem('invalid_parameter', `${param}: ${detail}`, param);

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
  429: '429 Too Many Requests',
  431: '431 Request Header Fields Too Large',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
  505: '505 HTTP Version Not Supported',
};
