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
 * A failure found at a data row whose physical line is not known yet: the CSV reader
 * turns it into a SnapshotError once it has located the row in the file.
 */
export class RowError extends Error {
  constructor(
    readonly rowIndex: number,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'RowError';
  }
}
