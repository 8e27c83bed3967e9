// GET /markets, GET /macro and GET /quota: whole answers against the fixture CSV and the plans' figures.

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { TestServer } from '../../helpers/api-server.js';
import { assertJsonExact, CLOCK_START, ok, startAnswerServer } from '../../helpers/e2e.js';
import { macroRows, marketsRows } from '../../helpers/fixture-model.js';

let server: TestServer;
before(async () => (server = await startAnswerServer()));
after(() => server.close());

/** Keys of a macro row's `data` map come in no promised order. */
const macroDataMaps = (path: readonly string[]): boolean =>
  path.length === 4 && path[0] === 'data' && path[2] === 'data';

async function checkMacro(
  query: string,
  rows: Record<string, unknown>[],
  limit: number,
  offset: number,
  message: string,
): Promise<void> {
  const body = ok(await server.get(`/api/v1/macro${query}`), message);
  const data = rows.slice(offset, offset + limit);
  assertJsonExact(body, { count: data.length, total: rows.length, limit, offset, data }, message, macroDataMaps);
}

test('markets: all six in spec order with symbol counts, K-line rows and date ranges; empty markets have null dates', async () => {
  const body = ok(await server.get('/api/v1/markets'), 'markets');
  assertJsonExact(body, { count: 6, data: marketsRows() }, 'overview computed from the CSVs');
});

test('macro: every indicator, ordered gdp, cpi_ppi, pmi then by date', async () => {
  await checkMacro('', macroRows(), 100, 0, 'all rows');
});

test('macro: indicator narrows to one series', async () => {
  await checkMacro('?indicator=cpi_ppi', macroRows('cpi_ppi'), 100, 0, 'cpi_ppi only');
});

test('macro: start is an inclusive year', async () => {
  await checkMacro('?start=2025', macroRows(undefined, 2025), 100, 0, 'gdp of 2024-12-31 is left out');
});

test('macro: end is an inclusive year', async () => {
  await checkMacro('?end=2024', macroRows(undefined, undefined, 2024), 100, 0, 'only the 2024 row');
});

test('macro: start and end the same year', async () => {
  await checkMacro('?start=2025&end=2025&indicator=pmi', macroRows('pmi', 2025, 2025), 100, 0, 'pmi in 2025');
});

test('macro: limit and offset page the rows', async () => {
  await checkMacro('?limit=1&offset=1', macroRows(), 1, 1, 'second row only');
});

test("macro: a limit past 2^32 is clamped to the plan's rows per call in every format (FlatBuffers holds a uint32)", async () => {
  for (const format of ['json', 'msgpack', 'flatbuffers', 'csv', 'arrow']) {
    const res = await server.get(`/api/v1/macro?limit=4294967296&format=${format}`, { key: server.keys.pro });
    assert.equal(res.status, 200, `${format}: ${res.text.slice(0, 200)}`);
  }
  await checkMacro('?limit=4294967296', macroRows(), 500, 0, 'JSON shows the limit used');
  await checkMacro('?limit=9007199254740993', macroRows(), 500, 0, 'past 2^53 too');
});

test('quota: the record of the calling key, with reset_at the next 00:00 UTC', async () => {
  const body = ok(await server.get('/api/v1/quota', { key: server.keys.enterprise }), 'quota');
  const nextMidnight = new Date(Math.floor(CLOCK_START / 86_400_000 + 1) * 86_400_000).toISOString();
  const exp = {
    plan: 'enterprise',
    org_name: 'enterprise desk',
    daily_quota: 2_000_000,
    used: 0,
    remaining: 2_000_000,
    requests_today: 1,
    reset_at: nextMidnight,
    export_quota: 200_000_000,
    export_used: 0,
    export_remaining: 200_000_000,
  };
  assertJsonExact(body, exp, 'a fresh enterprise key: nothing used, this request counted');
});
