// What a snapshot reload reports, declared once for the loaders that run it and the dashboard that shows it.

/** The steps of one pass, in order. `read` is skipped when there is no folder to read (only the stored snapshot is reopened). */
export const RELOAD_STAGES = [
  { stage: 'read', label: 'reading and checking the snapshot folder (markets that changed)' },
  { stage: 'store', label: 'storing the markets read' },
  { stage: 'open', label: 'opening the stored edition' },
  { stage: 'publish', label: 'handing it to every serving thread' },
] as const;
export type ReloadStage = (typeof RELOAD_STAGES)[number]['stage'];

/** How long a pass spent in each stage it went through, in order. */
export interface StageTime {
  stage: ReloadStage;
  seconds: number;
}

/** A pass in progress: a fresh object each time it is read. */
export interface ReloadProgress {
  stage: ReloadStage;
  /** 1-based position of `stage` in RELOAD_STAGES, and their count. */
  step: number;
  steps: number;
  label: string;
  folder: string | null;
  /** K-line rows read (or stored) so far in this stage and the stage's total, an estimate when reading (0: not known, or a stage without rows). */
  rows: number;
  totalRows: number;
  /** Since the pass started, and since this stage started. */
  seconds: number;
  stageSeconds: number;
  /** In the read stage once rows flow: the rest of it at the rate so far; otherwise null. */
  secondsLeft: number | null;
  /** The stages done so far in this pass. */
  done: StageTime[];
}

export type ReloadOutcome =
  | { kind: 'loaded'; version: string; seconds: number; stages: StageTime[] }
  | { kind: 'unchanged'; version: string; seconds: number; stages: StageTime[] }
  | { kind: 'rejected'; reason: string; seconds: number; stages: StageTime[] }
  | { kind: 'failed'; reason: string; seconds: number; stages: StageTime[] };
