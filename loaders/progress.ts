// Progress of a long row-producing job, with an estimate of the time left: a live line on a terminal, a line every few seconds elsewhere.

/** Where progress goes: process.stderr by default; anything with `write` (tests pass a fake). */
export interface ProgressOutput {
  write(text: string): unknown;
  readonly isTTY?: boolean;
}

/** What a finished job reports. */
export interface ProgressSummary {
  readonly rows: number;
  readonly seconds: number;
  readonly rowsPerSecond: number;
}

/** A running reporter. Only one thread owns it: workers send counts, the owner calls `add`. */
export interface Progress {
  /** Counts `rows` more rows done (redraws the terminal line at most every 100 ms; elsewhere a line every 5 s). */
  add(rows: number): void;
  /** Ends the job: final line on a terminal, the summary line otherwise. Later calls repeat the summary. */
  done(): ProgressSummary;
  /** Rows counted so far. */
  readonly rows: number;
}

export interface ProgressOptions {
  out?: ProgressOutput;
  /** Milliseconds clock (tests inject one). */
  now?: () => number;
}

const REDRAW_MS = 100;
/** Off a terminal (a log file, the journal): one progress line this often; a shorter job prints only its summary. */
const LOG_EVERY_MS = 5000;

/** 15234567 → "15,234,567" (no locale dependence). */
function thousands(n: number): string {
  return Math.round(n)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** `7 s`, `2 min 5 s`. */
function duration(seconds: number): string {
  const s = Math.ceil(seconds);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** The time left at the rate so far: `about 7 s left`, or what is known before there is a rate. */
export function timeLeft(rows: number, totalRows: number, rowsPerSecond: number): string {
  if (rows >= totalRows) return 'finishing';
  if (rows === 0 || rowsPerSecond <= 0) return 'estimating time left';
  return `about ${duration((totalRows - rows) / rowsPerSecond)} left`;
}

/** The summary line: `<label>: <rows> rows in <s> s (<rows/s> rows/s)`. */
export function formatSummary(label: string, s: ProgressSummary): string {
  return `${label}: ${thousands(s.rows)} rows in ${s.seconds.toFixed(1)} s (${thousands(s.rowsPerSecond)} rows/s)`;
}

/** Starts reporting a job of about `totalRows` rows (the percent is capped at 100). */
export function startProgress(label: string, totalRows: number, opts: ProgressOptions = {}): Progress {
  const out = opts.out ?? process.stderr;
  const now = opts.now ?? (() => performance.now());
  const tty = out.isTTY === true;
  const started = now();
  let rows = 0;
  let lastDraw = -Infinity;
  let summary: ProgressSummary | undefined;

  const summarise = (): ProgressSummary => {
    const seconds = (now() - started) / 1000;
    return { rows, seconds, rowsPerSecond: seconds > 0 ? rows / seconds : 0 };
  };
  const line = (): string => {
    const s = summarise();
    const pct = totalRows > 0 ? Math.min(100, (rows / totalRows) * 100) : 100;
    return `${label} ${pct.toFixed(1)}% ${thousands(rows)} rows ${thousands(s.rowsPerSecond)} rows/s, ${timeLeft(rows, totalRows, s.rowsPerSecond)}`;
  };
  // \r and "erase to end of line" redraw in place without scrolling.
  const draw = (): unknown => (tty ? out.write(`\r\x1b[K${line()}`) : out.write(`${line()}\n`));

  return {
    get rows() {
      return rows;
    },
    add(n: number): void {
      rows += n;
      if (summary) return;
      const t = now();
      if (tty ? t - lastDraw >= REDRAW_MS : t - Math.max(lastDraw, started) >= LOG_EVERY_MS) (lastDraw = t), draw();
    },
    done(): ProgressSummary {
      if (summary) return summary;
      summary = summarise();
      out.write(`${tty ? '\r\x1b[K' : ''}${formatSummary(label, summary)}\n`);
      return summary;
    },
  };
}
