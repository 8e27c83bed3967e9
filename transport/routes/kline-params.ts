// Parameters shared by the single and batch K-line routes: window, fields, adjustment, paging.

import { PERIODS } from '../../engine/queries/klines.js';
import { date, integer, oneOf } from '../params/declare.js';

export const ADJ_MODES = ['bfq', 'qfq', 'hfq'] as const;

// The plans' figures are the operator's (PLANS_FILE): the document's description lists those in force.
export const ROWS_PER_CALL =
  "A larger value is clamped to the plan's rows per call (the plans are listed in the API description); the response's `limit` shows the value used.";
export const BATCH_SIZE =
  "At most the plan's batch size (the plans are listed in the API description); more is 400 `batch_too_large`.";

export const KLINE_WINDOW = {
  start: date('First day of the window (inclusive); `offset` then skips forward.'),
  end: date(
    'Last day of the window (inclusive). Without `start` the window ends here (or at the latest row) and `offset` skips backward. `start` after `end` is a 400.',
  ),
};

export const ADJ = oneOf(
  ADJ_MODES,
  'bfq',
  'Adjustment: bfq as stored, qfq forward-adjusted (by the latest stored adj_factor), hfq backward-adjusted. Prices rounded to 4 decimals; volume and amount never adjusted.',
);
export const QFQ_BASE = date(
  "With `adj=qfq`: forward-adjust to this day's factor (the symbol's last stored day on or before it) instead of the latest day's: every price in that day's basis, so the rows that share its factor read as quoted. " +
    "E.g. `adj=qfq&qfq_base=2021-06-30` beside `as_of=2021-06-30` gives the K-lines in the basis of that day's snapshot. Another `adj` is a 400; a day before the symbol's first row is a 400.",
  '2021-06-30',
);
export const KLINE_LIMIT = integer(100, 1, `Rows to return (per symbol). ${ROWS_PER_CALL}`);
export const OFFSET = integer(0, 0, 'Rows to skip.');
export const PERIOD = oneOf(
  PERIODS,
  'day',
  "Bar length: day, or weeks (ISO, Monday to Sunday), calendar months, quarters or years built from the adjusted daily rows: open the first day's, high the largest, low the smallest, close the last day's, volume and amount summed; `date` and `adj_factor` are the last trading day's of the period. The latest period may be unfinished. `start`, `end`, `limit`, `offset` and `total` count bars, selected by their `date`; a bar always holds all its days.",
);
