// The problem catalogue: every code's status, title and headers, and the RFC 9457 answer each renders.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import {
  badParam,
  Problem,
  PROBLEMS,
  type ProblemCode,
  type ProblemEntry,
  STATUS_LINES,
} from '../../transport/problem.js';
import { SCHEMAS } from '../../transport/schemas/responses.js';

/**
 * The error codes the API was specified with (not_acceptable since formats are negotiated),
 * code → status, plus internal_error (the logged 500 of an unexpected exception),
 * deadline_exceeded (the request deadline), malformed_request (two Host or Content-Length
 * fields; from nginx, a head it cannot parse), and nginx's own answers in front
 * (deploy/nginx.conf): header_too_large (a head over 16 KiB) and http_version_not_supported;
 * forbidden_host: the dashboard's Host check against DNS rebinding; state_unwritable: a dashboard
 * write the state folder refused (a full disk); not_in_plan and export_quota_exhausted: the
 * export allowance (decisions §17); too_many_subscriptions: a stream subscription past the
 * plan's (decisions §16; an `error` message, its status never sent); upgrade_required: GET
 * /api/v1/stream without a WebSocket upgrade; too_many_exports: a key's exports under way past
 * EXPORTS_PER_KEY.
 */
const DECIDED: Record<string, number> = {
  invalid_parameter: 400,
  malformed_request: 400,
  unknown_market: 400,
  batch_too_large: 400,
  too_many_subscriptions: 400,
  unauthorized: 401,
  csrf_failed: 403,
  forbidden_host: 403,
  not_in_plan: 403,
  not_found: 404,
  unknown_symbol: 404,
  macro_not_ready: 404,
  method_not_allowed: 405,
  not_acceptable: 406,
  upgrade_required: 426,
  rate_limited: 429,
  quota_exhausted: 429,
  export_quota_exhausted: 429,
  too_many_exports: 429,
  header_too_large: 431,
  shutting_down: 503,
  mail_not_configured: 503,
  not_ready: 503,
  limits_unavailable: 503,
  internal_error: 500,
  deadline_exceeded: 503,
  http_version_not_supported: 505,
  state_unwritable: 507,
};

/** Reason phrases of RFC 9110 §15 (429 is RFC 6585 §4). */
const REASON: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  426: 'Upgrade Required',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
  505: 'HTTP Version Not Supported',
  507: 'Insufficient Storage',
};

const CODES = Object.keys(PROBLEMS) as ProblemCode[];

test('the catalogue holds exactly the codes named above', () => {
  assert.deepEqual([...CODES].sort(), Object.keys(DECIDED).sort());
});

for (const code of CODES) {
  test(`${code}: status ${DECIDED[code]} with the standard reason phrase as title`, () => {
    const { status, title } = PROBLEMS[code];
    assert.equal(status, DECIDED[code], 'the status named above');
    assert.equal(title, REASON[status], 'title is the reason phrase');
    assert.equal(STATUS_LINES[status], `${status} ${title}`, 'the status line uWS writes agrees');
  });
}

test('body() is the problem shape in order: type about:blank, title, status, code, detail, param when given', () => {
  for (const code of CODES) {
    const withParam = JSON.parse(new Problem(code, 'detail text', 'fields').body());
    assert.deepEqual(Object.keys(withParam), ['type', 'title', 'status', 'code', 'detail', 'param'], code);
    assert.deepEqual(withParam, {
      type: 'about:blank',
      title: PROBLEMS[code].title,
      status: PROBLEMS[code].status,
      code,
      detail: 'detail text',
      param: 'fields',
    });
  }
});

test('body(instance) ends with instance, the request id, after param or detail', () => {
  for (const code of CODES) {
    const withParam = JSON.parse(new Problem(code, 'detail text', 'fields').body('3f9a1c02b7de-1'));
    assert.deepEqual(Object.keys(withParam), ['type', 'title', 'status', 'code', 'detail', 'param', 'instance'], code);
    assert.equal(withParam.instance, '3f9a1c02b7de-1', `${code}: instance is the id given`);
    assert.deepEqual(
      Object.keys(JSON.parse(new Problem(code, 'd').body('req-7'))),
      ['type', 'title', 'status', 'code', 'detail', 'instance'],
      `${code} without param`,
    );
  }
});

test('body() leaves param out when none is given', () => {
  for (const code of CODES) {
    const body = JSON.parse(new Problem(code, 'd').body());
    assert.deepEqual(Object.keys(body), ['type', 'title', 'status', 'code', 'detail'], code);
    assert.equal('param' in body, false);
  }
});

test('every body validates against the Problem schema, with and without param and instance', () => {
  const ajv = new Ajv2020.default({ strict: true, allowUnionTypes: true });
  addFormats.default(ajv);
  const validate = ajv.compile(SCHEMAS.problem);
  for (const code of CODES) {
    for (const problem of [new Problem(code, 'd'), new Problem(code, 'd', 'p')]) {
      for (const body of [problem.body(), problem.body('req-1')])
        assert.ok(validate(JSON.parse(body)), `${code}: ${ajv.errorsText(validate.errors)}`);
    }
  }
});

test('a Problem carries the catalogue status of its code', () => {
  for (const code of CODES) assert.equal(new Problem(code, 'd').status, PROBLEMS[code].status, code);
});

test('badParam is a 400 invalid_parameter naming the parameter', () => {
  const problem = badParam('limit', 'must be at least 1');
  assert.equal(problem.code, 'invalid_parameter');
  assert.equal(problem.status, 400);
  assert.equal(problem.param, 'limit');
  assert.equal(JSON.parse(problem.body()).param, 'limit');
});

test('a Retry-After given per answer is whole seconds, at least 1, a header and not in the body', () => {
  const problem = new Problem('rate_limited', 'd', { retryAfter: 3 });
  assert.deepEqual(problem.headers, ['retry-after', '3']);
  assert.equal('retry-after' in JSON.parse(problem.body()), false);
  assert.deepEqual(
    new Problem('quota_exhausted', 'd', { retryAfter: 2.001 }).headers,
    ['retry-after', '3'],
    'rounded up',
  );
  assert.deepEqual(new Problem('rate_limited', 'd', { retryAfter: 0.2 }).headers, ['retry-after', '1'], 'at least 1');
});

test('every code carries the headers its catalogue entry names, and no other', () => {
  for (const code of CODES) {
    const entry: ProblemEntry = PROBLEMS[code];
    const fixed = Object.entries(entry.headers ?? {}).flat();
    if (typeof entry.retryAfter === 'number') fixed.push('retry-after', String(entry.retryAfter));
    assert.deepEqual(new Problem(code, 'd').headers, fixed, `${code}: the fixed headers`);
    const given = [...fixed];
    if (entry.retryAfter === 'given') given.push('retry-after', '7');
    if (entry.allow === 'given') given.push('allow', 'GET, OPTIONS');
    assert.deepEqual(
      new Problem(code, 'd', { retryAfter: 7, allow: 'GET, OPTIONS' }).headers,
      given,
      `${code}: given values only where the entry takes them`,
    );
  }
});

test('answer() is the status, headers and body, and closes the connection only where the catalogue says', () => {
  for (const code of CODES) {
    const problem = new Problem(code, 'd', 'p');
    const answer = problem.answer('req-1');
    assert.deepEqual(
      answer,
      {
        status: PROBLEMS[code].status,
        headers: problem.headers,
        body: problem.body('req-1'),
        close: code === 'malformed_request',
      },
      code,
    );
  }
});

test('a code worded one way in the catalogue answers that detail when none is given', () => {
  for (const code of CODES) {
    const entry: ProblemEntry = PROBLEMS[code];
    if (entry.detail !== undefined) assert.equal(new Problem(code).detail, entry.detail, code);
  }
});
