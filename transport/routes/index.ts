// Every API route, registered by server.ts in this order.

import type { Guard } from '../guard/guard.js';
import type { Route } from '../route.js';
import { actionsRoute } from './actions.js';
import { calendarRoute } from './calendar.js';
import { detailBatchRoute, detailRoute } from './detail.js';
import { exportRoute } from './export.js';
import { klinesBatchRoute } from './klines-batch.js';
import { klinesRoute } from './klines.js';
import { macroIndicatorsRoute } from './macro-indicators.js';
import { macroRoute } from './macro.js';
import { marketsRoute } from './markets.js';
import { quotaRouteOf } from './quota.js';
import { screenRoute } from './screen.js';
import { symbolsRoute } from './symbols.js';

/** The routes of one server; /quota reads that server's guard. */
export const routesFor = (guard: Guard): Route[] => [
  marketsRoute,
  macroRoute,
  macroIndicatorsRoute,
  quotaRouteOf(guard),
  symbolsRoute,
  calendarRoute,
  actionsRoute,
  klinesRoute,
  klinesBatchRoute,
  exportRoute,
  detailRoute,
  detailBatchRoute,
  screenRoute,
];
