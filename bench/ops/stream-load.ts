// The load child of the stream bench (its own process, forked with IPC): opens N WebSockets to the
// server, spread over 127.0.0.1, .2, … (the local port range bounds one address pair), each
// subscribed to `editions` (a share also to `bars` "*" of --bars-markets), then tells when each
// edition's message reached the last socket (and, asked, when the last `bars` message did). Bounded
// in time: it exits by itself after --seconds.
//
//   fork('stream-load.js', ['--port', P, '--key', K, '--sockets', N, '--bars-share', '0.1',
//                           '--bars-markets', 'ashare' | 'ashare,usstock,…', '--seconds', '600'])
//   parent → { type: 'expect', bars? }        an edition comes next (forget those seen: a version may come back);
//                                             bars: wait for its `bars` messages too before telling
//   parent → { type: 'close' }                ends every socket (the process stays, for another `open`)
//   parent → { type: 'open', sockets: N }     opens N again
//   child  → { type: 'ready', sockets, ms }   every socket welcomed and subscribed
//   child  → { type: 'edition', version, received, first, last, message, bars? }   epoch ms of the first and
//            last socket's `edition`, the first one's message; bars: per market the messages, bytes, rows,
//            symbols and dates of its `bars` (one copy parsed, the others' length checked against it), the
//            last one's epoch ms
//
// One Node thread reads every frame: at 10,000 sockets it is part of the figures. A `bars` frame is
// attributed by its first bytes (the server writes `type`, `market` and `data_version` first); only
// the first copy of each market's frame is parsed, as parsing a thousand copies measures this child.

import { parseArgs } from 'node:util';
import WebSocket from 'ws';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    key: { type: 'string' },
    sockets: { type: 'string', default: '1000' },
    'bars-share': { type: 'string', default: '0' },
    'bars-markets': { type: 'string', default: 'ashare' },
    'per-address': { type: 'string', default: '2500' },
    seconds: { type: 'string', default: '600' },
  },
});
const port = Number(values.port);
const key = values.key!;
const perAddress = Number(values['per-address']);
const barsShare = Number(values['bars-share']);
const barsMarkets = values['bars-markets']!.split(',');
const send = (m: object): void => void process.send!(m);
const epochMs = (): number => performance.timeOrigin + performance.now();

setTimeout(() => process.exit(3), Number(values.seconds) * 1000).unref(); // bounded, whatever happens

/** One market's `bars` frames of an edition: the first copy read whole, every other only counted. */
interface MarketBars {
  messages: number;
  bytes: number;
  /** Copies whose length differs from the first's (each subscriber is sent the same frame). */
  otherLength: number;
  rows: number;
  symbols: number;
  dates: string[];
}

interface EditionSeen {
  received: number;
  first: number;
  last: number;
  message: unknown;
  bars: Map<string, MarketBars>;
  barsLast: number;
  reported: boolean;
}

let sockets: WebSocket[] = [];
let barsSockets = 0;
let waitForBars = false;
/** Per data version: what reached the sockets, and when the first and the last did. */
const editions = new Map<string, EditionSeen>();

function seen(version: string): EditionSeen {
  let e = editions.get(version);
  if (e === undefined)
    editions.set(
      version,
      (e = { received: 0, first: 0, last: 0, message: null, bars: new Map(), barsLast: 0, reported: false }),
    );
  return e;
}

/** The markets whose `bars` the edition's message promises every bars socket (a day added, subscribed). */
function barsDue(e: EditionSeen): string[] {
  const markets = (e.message as { markets?: { market: string; rows_added: number }[] } | null)?.markets ?? [];
  return markets.filter((m) => m.rows_added > 0 && barsMarkets.includes(m.market)).map((m) => m.market);
}

function tellIfDone(version: string, e: EditionSeen): void {
  if (e.reported || e.received < sockets.length) return;
  if (waitForBars && barsDue(e).some((m) => (e.bars.get(m)?.messages ?? 0) < barsSockets)) return;
  e.reported = true;
  send({
    type: 'edition',
    version,
    received: e.received,
    first: e.first,
    last: e.last,
    message: e.message,
    ...(waitForBars ? { bars: Object.fromEntries(e.bars), barsLast: e.barsLast } : {}),
  });
}

const BARS_HEAD = /^\{"type":"bars","market":"([^"]+)","data_version":"([^"]+)"/;

function onBars(data: Buffer, at: number): void {
  const head = BARS_HEAD.exec(data.toString('latin1', 0, 160));
  if (head === null)
    return void send({ type: 'error', message: `a bars frame starting ${data.toString('latin1', 0, 80)}` });
  const [, market, version] = head;
  const e = seen(version);
  let b = e.bars.get(market);
  if (b === undefined) {
    const m = JSON.parse(data.toString('utf8')) as { data: Record<string, { date: string }[]> };
    const dates = new Set<string>();
    let rows = 0;
    for (const list of Object.values(m.data)) {
      rows += list.length;
      for (const row of list) dates.add(row.date);
    }
    e.bars.set(
      market,
      (b = {
        messages: 0,
        bytes: data.length,
        otherLength: 0,
        rows,
        symbols: Object.keys(m.data).length,
        dates: [...dates].sort(),
      }),
    );
  } else if (data.length !== b.bytes) b.otherLength++;
  b.messages++;
  e.barsLast = at;
  tellIfDone(version, e);
}

function open(n: number): void {
  const started = epochMs();
  let ready = 0;
  sockets = [];
  barsSockets = 0;
  for (let i = 0; i < n; i++) {
    const localAddress = `127.0.0.${1 + Math.floor(i / perAddress)}`;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/stream`, { headers: { 'x-api-key': key }, localAddress });
    const bars = i < n * barsShare;
    if (bars) barsSockets++;
    const subscriptions = bars ? 1 + barsMarkets.length : 1;
    let subscribed = 0;
    ws.on('message', (data: Buffer) => {
      const at = epochMs();
      if (data[2] === 116 && data[9] === 98) return onBars(data, at); // {"type":"b…
      const m = JSON.parse(data.toString('utf8')) as { type: string; data_version?: string };
      if (m.type === 'welcome') {
        ws.send(JSON.stringify({ action: 'subscribe', channel: 'editions' }));
        if (bars)
          for (const market of barsMarkets)
            ws.send(JSON.stringify({ action: 'subscribe', channel: 'bars', market, symbols: '*' }));
      } else if (m.type === 'subscribed') {
        if (++subscribed === subscriptions && ++ready === n)
          send({ type: 'ready', sockets: n, ms: epochMs() - started });
      } else if (m.type === 'edition') {
        const e = seen(m.data_version!);
        if (e.received++ === 0) {
          e.message = m;
          e.first = at;
        }
        e.last = at;
        tellIfDone(m.data_version!, e);
      } else if (m.type === 'error') send({ type: 'error', message: JSON.stringify(m) });
    });
    ws.on('error', (error) => send({ type: 'error', message: `socket ${i}: ${error.message}` }));
    sockets.push(ws);
  }
}

process.on('message', (m: { type: string; sockets?: number; bars?: boolean }) => {
  if (m.type === 'expect') {
    editions.clear(); // the next edition may carry a version seen before (a folder switched back)
    waitForBars = m.bars === true;
  } else if (m.type === 'close') {
    const closing = sockets.map((ws) => new Promise((resolve) => (ws.once('close', resolve), ws.terminate())));
    void Promise.all(closing).then(() => send({ type: 'closed' }));
  } else if (m.type === 'open') open(m.sockets!);
  else if (m.type === 'exit') process.exit(0);
});

open(Number(values.sockets));
