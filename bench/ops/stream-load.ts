// The load child of the stream bench (its own process, forked with IPC): opens N WebSockets to the
// server, spread over 127.0.0.1, .2, … (the local port range bounds one address pair), each
// subscribed to `editions` (a share also to `bars` "*" of ashare), then tells when each edition's
// message reached the last socket. Bounded in time: it exits by itself after --seconds.
//
//   fork('stream-load.js', ['--port', P, '--key', K, '--sockets', N, '--bars-share', '0.1', '--seconds', '600'])
//   parent → { type: 'expect' }               an edition comes next (forget those seen: a version may come back)
//   parent → { type: 'close' }                ends every socket (the process stays, for another `open`)
//   parent → { type: 'open', sockets: N }     opens N again
//   child  → { type: 'ready', sockets, ms }   every socket welcomed and subscribed
//   child  → { type: 'edition', version, received, first, last }   epoch ms of the first and last socket's message

import { parseArgs } from 'node:util';
import WebSocket from 'ws';

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    key: { type: 'string' },
    sockets: { type: 'string', default: '1000' },
    'bars-share': { type: 'string', default: '0' },
    'per-address': { type: 'string', default: '2500' },
    seconds: { type: 'string', default: '600' },
  },
});
const port = Number(values.port);
const key = values.key!;
const perAddress = Number(values['per-address']);
const barsShare = Number(values['bars-share']);
const send = (m: object): void => void process.send!(m);
const epochMs = (): number => performance.timeOrigin + performance.now();

setTimeout(() => process.exit(3), Number(values.seconds) * 1000).unref(); // bounded, whatever happens

let sockets: WebSocket[] = [];
/** Per data version: sockets that got its `edition`, and when the first and the last did. */
const editions = new Map<string, { received: number; first: number; last: number; reported: boolean }>();

function open(n: number): void {
  const started = epochMs();
  let ready = 0;
  sockets = [];
  for (let i = 0; i < n; i++) {
    const localAddress = `127.0.0.${1 + Math.floor(i / perAddress)}`;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/stream`, { headers: { 'x-api-key': key }, localAddress });
    const bars = i < n * barsShare;
    let subscribed = 0;
    ws.on('message', (data: Buffer) => {
      const at = epochMs();
      const m = JSON.parse(data.toString('utf8')) as { type: string; data_version?: string };
      if (m.type === 'welcome') {
        ws.send(JSON.stringify({ action: 'subscribe', channel: 'editions' }));
        if (bars) ws.send(JSON.stringify({ action: 'subscribe', channel: 'bars', market: 'ashare', symbols: '*' }));
      } else if (m.type === 'subscribed') {
        if (++subscribed === (bars ? 2 : 1) && ++ready === n)
          send({ type: 'ready', sockets: n, ms: epochMs() - started });
      } else if (m.type === 'edition') {
        let e = editions.get(m.data_version!);
        if (e === undefined) editions.set(m.data_version!, (e = { received: 0, first: at, last: at, reported: false }));
        e.received++;
        e.last = at;
        if (e.received === sockets.length && !e.reported) {
          e.reported = true;
          send({ type: 'edition', version: m.data_version, received: e.received, first: e.first, last: e.last });
        }
      } else if (m.type === 'error') send({ type: 'error', message: JSON.stringify(m) });
    });
    ws.on('error', (error) => send({ type: 'error', message: `socket ${i}: ${error.message}` }));
    sockets.push(ws);
  }
}

process.on('message', (m: { type: string; sockets?: number }) => {
  if (m.type === 'expect')
    editions.clear(); // the next edition may carry a version seen before (a folder switched back)
  else if (m.type === 'close') {
    const closing = sockets.map((ws) => new Promise((resolve) => (ws.once('close', resolve), ws.terminate())));
    void Promise.all(closing).then(() => send({ type: 'closed' }));
  } else if (m.type === 'open') open(m.sockets!);
  else if (m.type === 'exit') process.exit(0);
});

open(Number(values.sockets));
