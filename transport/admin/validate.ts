// Checks of the dashboard's write inputs: plan, organisation, contact e-mail, key id.

import type { PlanName, Plans } from '../../engine/plans.js';
import { badParam, Problem } from '../problem.js';

const CONTROL = /[\x00-\x1f\x7f]/;
/** A plain addr-spec: no spaces, quotes, brackets or line breaks (nothing that could bend a mail header). */
const EMAIL =
  /^[^\s@"<>()[\]\\,;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;
const KEY_ID = /^[A-Za-z0-9]{1,64}$/;

/** A plan in force, by name. */
export function planOf(value: unknown, plans: Plans): PlanName {
  if (typeof value !== 'string' || !plans.has(value))
    throw badParam('plan', `expected one of ${plans.names.join(', ')}`);
  return value;
}

/** An organisation name: any text up to 200 characters without control characters (keys list stays one line a key). */
export function orgOf(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string' || value.length > 200 || CONTROL.test(value))
    throw badParam('org', 'expected text of at most 200 characters without control characters');
  return value.trim();
}

/** A contact e-mail, or null for none (absent or empty). */
export function contactOf(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > 254 || !EMAIL.test(value.trim()))
    throw badParam('contact', 'expected an e-mail address like ops@example.com');
  return value.trim();
}

/** A key id from the path: 404 when it cannot name a key. */
export function keyIdOf(value: string): string {
  if (!KEY_ID.test(value)) throw new Problem('not_found', 'no such key');
  return value;
}
