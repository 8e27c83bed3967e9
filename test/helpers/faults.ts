// Faults a test injects into a running server, and the server log it reads them back from.

import type { Dataset } from '../../engine/dataset/dataset.js';
import type { ServerLog, ServerState } from '../../transport/server.js';

/** One line the server logged as an error: its fields and message. */
export interface ErrorLine {
  fields: Record<string, unknown>;
  msg: string;
}

/** A server log keeping its error lines, and the stack logged for a request id ('undefined' when none). */
export function errorLog(): { logger: ServerLog; lines: ErrorLine[]; stackOf(requestId: string): string } {
  const lines: ErrorLine[] = [];
  return {
    logger: {
      info: () => {},
      error: (fields, msg) => void lines.push({ fields: fields as Record<string, unknown>, msg }),
    },
    lines,
    stackOf: (requestId) => stackIn(lines.find((l) => l.fields.request_id === requestId)),
  };
}

/** The stack an error line logged ('undefined' when it has none). */
export const stackIn = (line: ErrorLine | undefined): string =>
  String((line?.fields.err as { stack?: string } | undefined)?.stack);

/**
 * Runs `use` while every read of `property` of the served Dataset throws `message` (a bug's
 * stand-in), then serves the real Dataset again, whatever `use` did.
 */
export async function withFaultyRead<T>(
  state: ServerState,
  property: string,
  message: string,
  use: () => Promise<T>,
): Promise<T> {
  const served = state.dataset!;
  state.dataset = new Proxy(served, {
    get(target, name, receiver) {
      if (name === property) throw new Error(message);
      return Reflect.get(target, name, receiver);
    },
  }) as Dataset;
  try {
    return await use();
  } finally {
    state.dataset = served;
  }
}
