// One request written on a raw socket in the pieces a test chooses, and what came back before the close or a deadline.

import { connect } from 'node:net';

/** What a raw request got: an answer, a close with no byte, or silence until the deadline. */
export type RawOutcome =
  | { kind: 'answer'; status: number; statusLine: string; headers: Record<string, string>; body: string; ms: number }
  /** Closed by the server, or reset, before any byte of an answer. */
  | { kind: 'closed'; ms: number }
  /** Some bytes, then the close, without a whole response head. */
  | { kind: 'partial'; text: string; ms: number }
  /** Nothing arrived (and no close) within `timeoutMs`; the test closed the socket. */
  | { kind: 'silent'; ms: number };

/** The bytes of a GET head: the request line, Host, `headers`, then X-Pad-<n> lines of ~`padLine` bytes until the head is exactly `size` bytes (0: no padding). */
export function requestHead(options: {
  path: string;
  version?: '1.0' | '1.1';
  host?: string | null;
  headers?: Record<string, string>;
  size?: number;
  padLine?: number;
}): Buffer {
  let head = `GET ${options.path} HTTP/${options.version ?? '1.1'}\r\n`;
  if (options.host !== null) head += `Host: ${options.host ?? '127.0.0.1'}\r\n`;
  for (const [name, value] of Object.entries(options.headers ?? {})) head += `${name}: ${value}\r\n`;
  const size = options.size ?? 0;
  const padLine = options.padLine ?? 1000;
  const pads: string[] = [];
  let length = head.length + 2; // the blank line that ends the head
  for (let n = 0; size > 0 && length < size; n++) {
    const name = `X-Pad-${n}: `;
    const room = size - length;
    if (room < name.length + 3) {
      // Too short for a line of its own: lengthen the line before.
      if (pads.length === 0) throw new Error(`cannot pad a head to exactly ${size} bytes`);
      pads[pads.length - 1] = `${pads[pads.length - 1].slice(0, -2) + 'a'.repeat(room)}\r\n`;
      length += room;
      break;
    }
    const line = Math.min(padLine, room);
    pads.push(`${name + 'a'.repeat(line - name.length - 2)}\r\n`);
    length += line;
  }
  head += pads.join('');
  head += '\r\n';
  if (size > 0 && head.length !== size) throw new Error(`padded head is ${head.length} bytes, not ${size}`);
  return Buffer.from(head, 'latin1');
}

/** `bytes` cut into pieces of `size` (a TCP segment's payload on Ethernet is 1,460 bytes). */
export function segments(bytes: Buffer, size = 1460): Buffer[] {
  const pieces: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) pieces.push(bytes.subarray(at, at + size));
  return pieces;
}

/**
 * Connects, writes `pieces` one by one `gapMs` apart (Nagle off, so each is its own segment),
 * and reads until the server closes or `timeoutMs` passes. The answer is parsed as one HTTP
 * response (Content-Length or chunked); `ms` runs from the first write.
 */
export function rawRequest(
  port: number,
  pieces: Buffer[],
  options: { gapMs?: number; timeoutMs?: number } = {},
): Promise<RawOutcome> {
  const gapMs = options.gapMs ?? 2;
  const timeoutMs = options.timeoutMs ?? 5_000;
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    const chunks: Buffer[] = [];
    let started = 0;
    let settled = false;
    const finish = (outcome: RawOutcome): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(outcome);
    };
    const elapsed = (): number => performance.now() - started;
    const timer = setTimeout(() => finish({ kind: 'silent', ms: elapsed() }), timeoutMs);
    const tryParse = (ended: boolean): void => {
      const bytes = Buffer.concat(chunks);
      const parsed = parseResponse(bytes, ended);
      if (parsed !== null) finish({ kind: 'answer', ...parsed, ms: elapsed() });
      else if (ended)
        finish(
          bytes.length === 0
            ? { kind: 'closed', ms: elapsed() }
            : { kind: 'partial', text: bytes.toString('latin1'), ms: elapsed() },
        );
    };
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      tryParse(false);
    });
    socket.on('end', () => tryParse(true));
    socket.on('close', () => tryParse(true));
    socket.on('error', () => tryParse(true));
    socket.on('connect', async () => {
      started = performance.now();
      for (let i = 0; i < pieces.length && !settled && !socket.destroyed; i++) {
        if (i > 0 && gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
        if (!settled && !socket.destroyed) socket.write(pieces[i]);
      }
    });
  });
}

/** What a pipelining client got on one connection: the whole answers in order, and whether the server closed it. */
export interface PipelinedOutcome {
  answers: { status: number; headers: Record<string, string>; body: string }[];
  closed: boolean;
}

/**
 * Writes `requests` in one write on one connection (pipelined) and reads answers until
 * `requests.length` arrived, the server closed, or `timeoutMs` passed. HEAD requests are not
 * supported (their answers carry no body to delimit).
 */
export function pipelined(port: number, requests: string[], timeoutMs = 3_000): Promise<PipelinedOutcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    let bytes = Buffer.alloc(0);
    const answers: PipelinedOutcome['answers'] = [];
    let settled = false;
    const finish = (closed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ answers, closed });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on('data', (chunk: Buffer) => {
      bytes = Buffer.concat([bytes, chunk]);
      for (let parsed = parseResponse(bytes, false); parsed !== null; parsed = parseResponse(bytes, false)) {
        answers.push({ status: parsed.status, headers: parsed.headers, body: parsed.body });
        bytes = bytes.subarray(parsed.consumed);
        if (answers.length === requests.length) return finish(false);
      }
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.on('connect', () => socket.write(Buffer.from(requests.join(''), 'utf8')));
  });
}

/** A whole response in `bytes`, or null while it is incomplete (`ended`: take what there is); `consumed`: its length in bytes. */
function parseResponse(
  bytes: Buffer,
  ended: boolean,
): { status: number; statusLine: string; headers: Record<string, string>; body: string; consumed: number } | null {
  const cut = bytes.indexOf('\r\n\r\n');
  if (cut < 0) return null;
  const [statusLine, ...lines] = bytes.subarray(0, cut).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}\n${value}` : value;
  }
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1] ?? 0);
  let body = bytes.subarray(cut + 4);
  let consumed = bytes.length;
  if (headers['content-length'] !== undefined) {
    const length = Number(headers['content-length']);
    if (body.length < length)
      return ended ? { status, statusLine, headers, body: body.toString('utf8'), consumed } : null;
    body = body.subarray(0, length);
    consumed = cut + 4 + length;
  } else if (/chunked/i.test(headers['transfer-encoding'] ?? '')) {
    const decoded = dechunk(body);
    if (decoded === null) return ended ? { status, statusLine, headers, body: body.toString('utf8'), consumed } : null;
    body = decoded;
  } else if (status === 204 || status === 304) {
    body = body.subarray(0, 0);
    consumed = cut + 4;
  } else if (!ended) {
    return null; // a body delimited by the close
  }
  return { status, statusLine, headers, body: body.toString('utf8'), consumed };
}

function dechunk(bytes: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    if (eol < 0) return null;
    const size = parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (size === 0) return Buffer.concat(parts);
    if (bytes.length < eol + 2 + size + 2) return null;
    parts.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}
