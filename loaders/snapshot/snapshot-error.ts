// The one error a snapshot folder can fail with: `file:line: reason`.

/** A validation failure; `line` is 1-based (1 = the header row), 0 when the whole file is meant. */
export class SnapshotError extends Error {
  constructor(
    readonly file: string,
    readonly line: number,
    readonly reason: string,
  ) {
    super(line > 0 ? `${file}:${line}: ${reason}` : `${file}: ${reason}`);
    this.name = 'SnapshotError';
  }
}

/**
 * A failure on the line being read: the CSV reader, which knows the file and the physical
 * line, turns it into a SnapshotError.
 */
export class RowError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'RowError';
  }
}
