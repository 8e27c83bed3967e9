// Every response shape the data routes answer, by name.

import { crossSectionShape } from './cross-section.js';
import { actionsShape } from './actions.js';
import { calendarShape } from './calendar.js';
import { detailBatchShape, detailShape } from './detail.js';
import { klinesBatchShape } from './klines-batch.js';
import { klinesShape } from './klines.js';
import { macroIndicatorsShape } from './macro-indicators.js';
import { macroShape, marketsShape, quotaShape, symbolsShape } from './plain.js';
import { screenShape } from './screen.js';
import type { Shape } from './shape.js';

/** Every shape, by its name: a new shape is its own file and one line here (its FlatBuffers table in mdq.fbs). */
export const SHAPES = {
  markets: marketsShape,
  symbols: symbolsShape,
  calendar: calendarShape,
  actions: actionsShape,
  klines: klinesShape,
  klinesBatch: klinesBatchShape,
  crossSection: crossSectionShape,
  detail: detailShape,
  detailBatch: detailBatchShape,
  screen: screenShape,
  macro: macroShape,
  macroIndicators: macroIndicatorsShape,
  quota: quotaShape,
  // biome-ignore lint/suspicious/noExplicitAny: one table of shapes whose value types differ
} as const satisfies Record<string, Shape<any>>;

/** Names of the shapes the data routes answer (problem and health bodies are not negotiated). */
export type ShapeName = keyof typeof SHAPES;
