// What both clients' README stream examples must have received, held in one place: a welcome, three
// subscriptions (editions, two ashare symbols' bars in two of §12's forms, a cheap-PE screen), the
// screen's page, then the new day's edition and its bars exactly as GET answers them.

import assert from 'node:assert/strict';

type Message = { type: string } & Record<string, any>;

export interface ExampleExpected {
  /** The version served when the example started, and the one the added day made. */
  first: string;
  version: string;
  /** The day added to ashare (two rows: sh600001 and sz000002). */
  day: string;
  /** GET /ashare/screen?max_pe_ratio=15&sort=pe_ratio&limit=5 on the first edition. */
  page: { total: number; data: { symbol: string }[] };
  /** GET /ashare/klines?symbols=sh600001,000002.SZ&start=<day>&fields=* on the new edition. */
  bars: unknown;
  /** The screen's query as the client sent it (each client writes its numbers its own way). */
  screenQuery: Record<string, unknown>;
}

export function assertStreamExample(messages: Message[], x: ExampleExpected): void {
  assert.deepEqual(
    messages.map((m) => m.type),
    ['welcome', 'subscribed', 'subscribed', 'subscribed', 'screen', 'edition', 'bars'],
  );
  const [welcome, editions, bars, screen, page, edition, pushed] = messages;
  assert.deepEqual(welcome, {
    type: 'welcome',
    data_version: x.first,
    plan: 'pro',
    limits: { connections: 5, subscriptions: 50 },
  });
  assert.deepEqual(editions, { type: 'subscribed', channel: 'editions' });
  assert.deepEqual(bars, { type: 'subscribed', channel: 'bars', market: 'ashare', symbols: ['sh600001', '000002.SZ'] });
  assert.deepEqual(screen, {
    type: 'subscribed',
    channel: 'screen',
    market: 'ashare',
    id: 'cheap',
    query: x.screenQuery,
  });
  assert.ok(x.page.data.length > 0, 'the fixture has cheap symbols');
  assert.deepEqual(page, {
    type: 'screen',
    id: 'cheap',
    market: 'ashare',
    data_version: x.first,
    total: x.page.total,
    entered: x.page.data.map((r) => r.symbol),
    exited: [],
    data: x.page.data,
  });
  assert.deepEqual(edition, {
    type: 'edition',
    data_version: x.version,
    previous: x.first,
    markets: [{ market: 'ashare', rows_added: 2, last_date: x.day, history_changed: false }],
  });
  assert.deepEqual(pushed, {
    type: 'bars',
    market: 'ashare',
    data_version: x.version,
    data: x.bars,
    factor_changed: [],
  });
  assert.deepEqual(Object.keys(pushed.data as object), ['sh600001', 'sz000002']);
}
