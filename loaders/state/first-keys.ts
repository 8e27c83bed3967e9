// First start: one key per plan on an empty key store, for main.ts to print once.

import { BUILT_IN_PLAN_NAMES } from '../../engine/plans.js';
import type { IssuedKey, KeyStore } from './key-store.js';

/**
 * On an empty key store, creates one key per built-in plan (free, pro, enterprise, internal) and
 * returns them; on a store with any key (disabled ones too) creates nothing and returns [].
 */
export async function ensureFirstKeys(keys: KeyStore, org = 'first start'): Promise<IssuedKey[]> {
  if (keys.list().length > 0) return [];
  const out: IssuedKey[] = [];
  for (const plan of BUILT_IN_PLAN_NAMES) out.push(await keys.create(plan, org));
  return out;
}
