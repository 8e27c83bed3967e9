// The format registry (transport/answers/formats/): every format it lists is offered by negotiation and documented in the OpenAPI document.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FORMAT_NAMES, FORMAT_OF, FORMATS } from '../../transport/answers/formats/index.js';
import { Guard } from '../../transport/guard/guard.js';
import { FORMAT_PARAM, formatFromAccept, NO_FORMAT } from '../../transport/http/negotiate.js';
import { buildOpenApi } from '../../transport/openapi.js';
import { routesFor } from '../../transport/routes/index.js';

/** The routes answering in the registry's formats (the export names its own: test/transport/schemas.test.ts checks it). */
const ROUTES = routesFor(new Guard()).filter((r) => r.stream === undefined);
const DOC = buildOpenApi() as { info: { description: string }; paths: Record<string, { get: any }> };
/** The OpenAPI operation of each data route, by its operationId. */
const OPERATIONS = new Map(Object.values(DOC.paths).map((p) => [p.get.operationId as string, p.get]));

test('names, and media types across formats, are each claimed once; FORMAT_OF finds each format by its name', () => {
  assert.equal(new Set(FORMAT_NAMES).size, FORMATS.length, 'no two formats share a name');
  const media = FORMATS.flatMap((f) => f.mediaTypes);
  assert.equal(new Set(media).size, media.length, 'no two formats share a media type');
  for (const f of FORMATS) {
    assert.equal(FORMAT_OF[f.name], f, `FORMAT_OF.${f.name} is the registry's ${f.name}`);
    assert.ok(
      f.mediaTypes.length > 0 && f.mediaTypes.every((m) => m === m.toLowerCase() && !m.includes(';')),
      `${f.name}: media types lower case, without parameters`,
    );
    assert.equal(f.contentType.split(';')[0], f.mediaTypes[0], `${f.name}: its Content-Type is its first media type`);
  }
});

test('format=<name> selects each format, on every route', () => {
  for (const f of FORMATS) {
    assert.equal(FORMAT_PARAM.parse(f.name, 'format'), f.name, `format=${f.name} parses as ${f.name}`);
    for (const r of ROUTES)
      assert.equal(r.query.format.parse(f.name, 'format'), f.name, `${r.pattern}: format=${f.name} is accepted`);
  }
  assert.equal(FORMAT_PARAM.parse(undefined, 'format'), null, 'no format= leaves it to Accept');
});

test('each media type of a format in Accept selects that format, alone or preferred over others', () => {
  for (const f of FORMATS) {
    for (const media of f.mediaTypes) {
      assert.equal(formatFromAccept(media), f.name, `Accept: ${media} selects ${f.name}`);
      assert.equal(
        formatFromAccept(media.toUpperCase()),
        f.name,
        `Accept: ${media.toUpperCase()} selects ${f.name} (case-insensitive)`,
      );
      assert.equal(
        formatFromAccept(`*/*;q=0.1, ${media};q=0.9`),
        f.name,
        `Accept: ${media} over */* selects ${f.name}`,
      );
    }
    assert.equal(
      formatFromAccept(f.contentType),
      f.name,
      `Accept: the Content-Type ${f.name} answers carry (${f.contentType}) selects ${f.name}`,
    );
  }
});

test('the first format is the default, and the 406 detail lists every format', () => {
  assert.equal(formatFromAccept(''), FORMAT_NAMES[0], 'no Accept: the first format');
  assert.equal(formatFromAccept('*/*'), FORMAT_NAMES[0], '*/*: the first format');
  for (const f of FORMATS) assert.ok(NO_FORMAT.includes(f.mediaTypes[0]), `the 406 detail names ${f.mediaTypes[0]}`);
});

test('the OpenAPI document offers each format under every route whose shape offers it, and only there', () => {
  const offeredSomewhere = new Set<string>();
  for (const r of ROUTES) {
    const op = OPERATIONS.get(r.operationId);
    assert.ok(op !== undefined, `${r.operationId} is documented`);
    const content = op.responses['200'].content as Record<string, unknown>;
    // JSON is documented as plain application/json (what generated clients look for); the others as answered.
    const expected = FORMATS.filter((f) => f.refusal(r.shape) === null).map((f) =>
      f.name === 'json' ? f.mediaTypes[0] : f.contentType,
    );
    assert.deepEqual(
      Object.keys(content),
      expected,
      `${r.operationId}: the 200 lists the media type of each format its shape offers, in registry order`,
    );
    expected.forEach((type) => offeredSomewhere.add(type));
    const param = op.parameters.find((p: { name: string; in: string }) => p.in === 'query' && p.name === 'format');
    assert.deepEqual(param?.schema.enum, [...FORMAT_NAMES], `${r.operationId}: format= takes every registry name`);
    for (const f of FORMATS)
      assert.ok(
        param.description.includes(`${f.name} (${f.mediaTypes[0]}`),
        `${r.operationId}: format= describes ${f.name}`,
      );
  }
  for (const f of FORMATS)
    assert.ok(
      offeredSomewhere.has(f.name === 'json' ? f.mediaTypes[0] : f.contentType),
      `${f.name} is documented for at least one route`,
    );
});

test("the OpenAPI document's description names every format", () => {
  assert.ok(
    DOC.info.description.includes(`\`format=${FORMAT_NAMES.join('|')}\``),
    'info.description lists format=<every name>',
  );
});
