// Debian's Chromium for the browser tests: where it is, and why it cannot run here (the skip names
// the reason; under CI the test fails instead).

import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/** Why Chromium (driven by playwright-core) cannot run here, or null when it can. */
export async function chromiumUnavailable(): Promise<string | null> {
  if (!existsSync(CHROMIUM))
    return `Chromium is not installed at ${CHROMIUM} (apt-get install -y chromium; .ci/run does it)`;
  try {
    await import('playwright-core');
  } catch (error) {
    return `playwright-core cannot be loaded: ${(error as Error).message}`;
  }
  return null;
}
