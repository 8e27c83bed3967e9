// Load child of bench/ops/reload: paced GETs on keep-alive connections; status, version, latency, body check per response.
// Started with fork() and one JSON argument (LoadConfig); posts a LoadResult to the parent and exits.

import { createHash } from 'node:crypto';
import { KeepAliveClient } from '../../test/helpers/keep-alive.js';

export interface LoadConfig {
  port: number;
  key: string;
  connections: number;
  /** Requests a second on each connection (paced from a schedule, not back to back). */
  ratePerConnection: number;
  seconds: number;
  paths: string[];
}

/** One connection's responses in send order, as parallel arrays (compact to post). */
export interface LaneResult {
  /** Epoch ms (performance.timeOrigin + now) at send. */
  sentAt: number[];
  /** Send → last body byte, ms. */
  ms: number[];
  /** HTTP status, or 0 for a connection-level failure (see `failures`). */
  status: number[];
  /** Index into LoadResult.versions; -1 no X-Data-Version, -2 more than one. */
  version: number[];
  /** 1 when the body equals the first body seen for the same path and version. */
  sameBody: number[];
  /** Connection-level failures: refused, closed, truncated, error. */
  failures: { kind: string; at: number }[];
}

export interface LoadResult {
  versions: string[];
  lanes: LaneResult[];
  /** Responses whose body differed from the first one seen for their path and version. */
  bodyMismatches: number;
}

const epochMs = (): number => performance.timeOrigin + performance.now();
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function run(config: LoadConfig): Promise<LoadResult> {
  const versions: string[] = [];
  const versionIndex = new Map<string, number>();
  const reference = new Map<string, string>(); // path + '\n' + version → body hash
  let bodyMismatches = 0;
  const until = epochMs() + config.seconds * 1000;
  const gap = 1000 / config.ratePerConnection;

  const lane = async (n: number): Promise<LaneResult> => {
    const out: LaneResult = { sentAt: [], ms: [], status: [], version: [], sameBody: [], failures: [] };
    const client = new KeepAliveClient(config.port);
    let next = epochMs() + (gap * n) / config.connections; // spread the lanes over one gap
    for (let i = 0; ; i++) {
      next += gap;
      const wait = next - epochMs();
      if (wait > 0) await sleep(wait);
      else if (wait < -1000) next = epochMs(); // far behind: no burst to catch up
      if (epochMs() >= until) break;
      const path = config.paths[(n + i) % config.paths.length];
      const sentAt = epochMs();
      const ex = await client.get(path, { 'x-api-key': config.key });
      out.sentAt.push(sentAt);
      if (ex.kind !== 'response') {
        out.ms.push(epochMs() - sentAt);
        out.status.push(0);
        out.version.push(-1);
        out.sameBody.push(0);
        out.failures.push({ kind: ex.kind, at: sentAt });
        continue;
      }
      out.ms.push(ex.ms);
      out.status.push(ex.status);
      const v = ex.headers['x-data-version'];
      let vi = -1;
      if (v?.includes('\n')) vi = -2;
      else if (v !== undefined) {
        vi = versionIndex.get(v) ?? -1;
        if (vi < 0) versionIndex.set(v, (vi = versions.push(v) - 1));
      }
      out.version.push(vi);
      const hash = createHash('sha1').update(ex.body).digest('hex');
      const key = `${path}\n${v}`;
      const ref = reference.get(key);
      if (ref === undefined) reference.set(key, hash);
      const same = ref === undefined || ref === hash;
      if (!same) bodyMismatches++;
      out.sameBody.push(same ? 1 : 0);
    }
    client.close();
    return out;
  };

  const lanes = await Promise.all(Array.from({ length: config.connections }, (_, n) => lane(n)));
  return { versions, lanes, bodyMismatches };
}

const arg = process.argv[2];
if (arg !== undefined && process.send !== undefined) {
  const result = await run(JSON.parse(arg) as LoadConfig);
  process.send(result, () => process.exit(0));
}
