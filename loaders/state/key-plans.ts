// At start: every stored key's plan must be in force, or the start stops naming the key (exit 2).

import type { KeyRecord, Plans } from '../../engine/plans.js';

/**
 * The first stored key (of `records`) whose plan `plans` does not define, as one line for
 * the operator, or null when every key's plan is in force. Disabled keys count too: enabling
 * one must not bring back a key the server cannot limit.
 */
export function keyPlanProblem(records: readonly KeyRecord[], plans: Plans): string | null {
  const lost = records.filter((r) => !plans.has(r.plan));
  if (lost.length === 0) return null;
  const [first] = lost;
  const fix =
    plans.source === null
      ? 'no PLANS_FILE is given (only the built-in plans are in force): give the file that defines it'
      : `PLANS_FILE ${plans.source} does not define it: define it there`;
  const more = lost.length > 1 ? `; ${lost.length - 1} more key${lost.length > 2 ? 's' : ''} too` : '';
  return `key ${first.id} has plan '${first.plan}', but ${fix}, or move the key with npm run keys -- set-plan ${first.id} <plan>${more}`;
}
