// Quota day boundaries: 00:00 in QUOTA_TZ, across DST changes, never moving backwards.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { nextDayStart, localDayNumber, QuotaDay } from '../../../transport/guard/quota-day.js';

const at = (iso: string) => Date.parse(iso);

function resetAfter(zone: string, iso: string): { label: string; resetAt: string } {
  const q = new QuotaDay(zone);
  q.day(at(iso));
  return { label: q.label, resetAt: q.resetAt };
}

test('UTC: the day is the UTC date and resets at the next 00:00Z', () => {
  assert.deepEqual(resetAfter('UTC', '2024-02-28T23:59:59.999Z'), {
    label: '2024-02-28',
    resetAt: '2024-02-29T00:00:00.000Z',
  });
});

test('UTC (reckoned without Intl) gives the day Intl gives for Etc/UTC, at every millisecond edge and between', () => {
  const ms: number[] = [];
  for (let day = -800; day < 30_000; day += 7)
    ms.push(day * 86_400_000 - 1, day * 86_400_000, day * 86_400_000 + 43_210_987);
  for (const t of ms) assert.equal(localDayNumber(t, 'UTC'), localDayNumber(t, 'Etc/UTC'), new Date(t).toISOString());
  const q = new QuotaDay('UTC');
  q.day(at('1969-12-31T23:59:59.999Z'));
  assert.deepEqual([q.label, q.resetAt], ['1969-12-31', '1970-01-01T00:00:00.000Z']);
});

test('Asia/Shanghai: the day turns at 16:00Z', () => {
  assert.deepEqual(resetAfter('Asia/Shanghai', '2024-03-10T15:59:59.999Z'), {
    label: '2024-03-10',
    resetAt: '2024-03-10T16:00:00.000Z',
  });
  assert.deepEqual(resetAfter('Asia/Shanghai', '2024-03-10T16:00:00.000Z'), {
    label: '2024-03-11',
    resetAt: '2024-03-11T16:00:00.000Z',
  });
});

test('America/New_York: the 23-hour day of the spring change resets at 04:00Z', () => {
  assert.deepEqual(resetAfter('America/New_York', '2024-03-10T05:00:00.000Z'), {
    label: '2024-03-10',
    resetAt: '2024-03-11T04:00:00.000Z',
  });
});

test('America/New_York: the 25-hour day of the autumn change resets at 05:00Z', () => {
  assert.deepEqual(resetAfter('America/New_York', '2024-11-03T04:00:00.000Z'), {
    label: '2024-11-03',
    resetAt: '2024-11-04T05:00:00.000Z',
  });
});

test('America/Santiago: when DST skips midnight, the day starts at the first instant that exists (01:00)', () => {
  assert.deepEqual(resetAfter('America/Santiago', '2024-09-07T12:00:00.000Z'), {
    label: '2024-09-07',
    resetAt: '2024-09-08T04:00:00.000Z',
  });
});

test('America/Santiago: a repeated 23:00 hour does not end the day early', () => {
  assert.deepEqual(resetAfter('America/Santiago', '2024-04-06T12:00:00.000Z'), {
    label: '2024-04-06',
    resetAt: '2024-04-07T04:00:00.000Z',
  });
});

test('the day advances when the clock reaches the cached boundary', () => {
  const q = new QuotaDay('Asia/Shanghai');
  const d = q.day(at('2024-03-10T12:00:00Z'));
  assert.equal(q.day(at('2024-03-10T15:59:59.999Z')), d, 'same day one ms before local midnight');
  assert.equal(q.day(at('2024-03-10T16:00:00Z')), d + 1, 'next day at local midnight');
  assert.equal(q.label, '2024-03-11');
});

test('a clock that steps back across midnight keeps the later day', () => {
  const q = new QuotaDay('UTC');
  const d = q.day(at('2024-05-02T00:00:01Z'));
  assert.equal(q.day(at('2024-05-01T23:59:00Z')), d, 'no return to the day before');
});

test('nextDayStart agrees with the local date on both sides of the boundary', () => {
  const zone = 'Europe/London';
  const from = at('2024-03-30T12:00:00Z');
  const day = localDayNumber(from, zone);
  const t = nextDayStart(from, day, zone);
  assert.equal(localDayNumber(t - 1, zone), day, 'one ms before: still the old day');
  assert.equal(localDayNumber(t, zone), day + 1, 'at the boundary: the new day');
});

test('an unknown zone is refused at construction', () => {
  assert.throws(() => new QuotaDay('Mars/Olympus_Mons'), RangeError);
});
