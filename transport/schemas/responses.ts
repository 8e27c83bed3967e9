// Every response schema by name: the shapes' own, plus the problem and health bodies.

import { SHAPES, type ShapeName } from '../shapes/index.js';
import { arrayOf, instanceField, int, object, type Schema, str } from './common.js';

export const SCHEMAS = {
  problem: object(
    {
      type: str,
      title: str,
      status: int,
      code: str,
      detail: str,
      param: str,
      suggestions: {
        ...arrayOf(str),
        description: 'unknown_symbol: up to 3 existing codes the client may have meant, nearest first (possibly none).',
      },
      instance: instanceField,
    },
    ['param', 'suggestions', 'instance'],
    'RFC 9457 problem details',
  ),
  health: object({
    status: str,
    data_version: str,
    usage_durable: {
      type: 'boolean',
      description:
        "False while the keys' usage counts are held in memory because the state folder refuses their write (a full disk); the data is still served, and the counts are written once there is room.",
    },
  }),
  ...(Object.fromEntries(Object.entries(SHAPES).map(([name, shape]) => [name, shape.schema])) as Record<
    ShapeName,
    Schema
  >),
};

export type SchemaName = keyof typeof SCHEMAS;
