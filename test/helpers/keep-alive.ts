// A raw HTTP/1.1 keep-alive client that says exactly how each exchange ended (whole answer, refused, cut short).

import { connect, type Socket } from 'node:net';

/** How one request ended, as the bytes on the wire show it. */
export type Exchange =
  | {
      kind: 'response';
      status: number;
      /** Lower-case names; a repeated header's values joined by '\n'. */
      headers: Record<string, string>;
      body: Buffer;
      /** Send → last body byte, in ms. */
      ms: number;
      /** The server said `Connection: close`; the connection is not reused. */
      close: boolean;
      /** Whether the request went on a connection that had answered before. */
      reused: boolean;
    }
  /** A new connection was refused (nobody listens, or the listener closed with it still queued). */
  | { kind: 'refused'; reused: false }
  /** The connection closed before any byte of the answer (a reused one: the keep-alive close race). */
  | { kind: 'closed'; reused: boolean }
  /** Some of the answer arrived, then the connection ended: a truncated answer. */
  | { kind: 'truncated'; got: number; reused: boolean; head: string }
  | { kind: 'error'; message: string; reused: boolean };

/** One connection, one request at a time; reconnects after a close. */
export class KeepAliveClient {
  private socket: Socket | null = null;
  private answered = 0;

  constructor(
    readonly port: number,
    readonly host = '127.0.0.1',
  ) {}

  /** Whether a connection is open now. */
  get connected(): boolean {
    return this.socket !== null;
  }

  /** Opens the connection now (to hold it idle); resolves false when refused. */
  async open(): Promise<boolean> {
    if (this.socket !== null) return true;
    const opened = await this.connect();
    return opened !== 'refused' && typeof opened !== 'string';
  }

  /** GET `path` with `headers` on the open connection (a new one if none is open). */
  async get(path: string, headers: Record<string, string> = {}): Promise<Exchange> {
    let reused = this.socket !== null && this.answered > 0;
    if (this.socket === null) {
      const opened = await this.connect();
      if (opened === 'refused') return { kind: 'refused', reused: false };
      if (typeof opened === 'string') return { kind: 'error', message: opened, reused: false };
      reused = false;
    }
    const socket = this.socket!;
    const lines = [`GET ${path} HTTP/1.1`, `Host: ${this.host}:${this.port}`];
    for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
    const started = performance.now();
    return new Promise<Exchange>((resolve) => {
      let buf: Buffer = Buffer.alloc(0);
      let head: { status: number; headers: Record<string, string>; bodyAt: number; length: number } | null = null;
      const finish = (result: Exchange, keep: boolean): void => {
        socket.off('data', onData);
        socket.off('close', onClose);
        socket.off('error', onError);
        if (!keep) this.drop(socket);
        resolve(result);
      };
      const onData = (chunk: Buffer): void => {
        buf = buf.length === 0 ? chunk : Buffer.concat([buf, chunk]);
        if (head === null) {
          const end = buf.indexOf('\r\n\r\n');
          if (end < 0) return;
          head = parseHead(buf.subarray(0, end).toString('latin1'), end + 4);
        }
        if (head.length < 0) {
          finish({ kind: 'error', message: 'answer without Content-Length', reused }, false);
          return;
        }
        if (buf.length < head.bodyAt + head.length) return;
        const close = /(^|,)\s*close\s*(,|$)/i.test(head.headers.connection ?? '');
        this.answered++;
        const body = Buffer.from(buf.subarray(head.bodyAt, head.bodyAt + head.length));
        finish(
          {
            kind: 'response',
            status: head.status,
            headers: head.headers,
            body,
            ms: performance.now() - started,
            close,
            reused,
          },
          !close,
        );
      };
      let reset = false;
      const onClose = (): void => {
        // A new connection reset before any byte: it sat in the queue of a listener that closed (the
        // kernel resets those), so the server never read the request. A refusal, as ECONNREFUSED is.
        if (buf.length === 0 && !reused && reset) finish({ kind: 'refused', reused: false }, false);
        else if (buf.length === 0) finish({ kind: 'closed', reused }, false);
        else
          finish({ kind: 'truncated', got: buf.length, reused, head: buf.subarray(0, 200).toString('latin1') }, false);
      };
      const onError = (error: NodeJS.ErrnoException): void => {
        reset = error.code === 'ECONNRESET'; // 'close' follows with what arrived
      };
      socket.on('data', onData);
      socket.on('close', onClose);
      socket.on('error', onError);
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
  }

  /** Writes raw bytes (e.g. half a request) on the open connection. */
  writeRaw(text: string): void {
    this.socket?.write(text);
  }

  /** Resolves when the open connection ends (at once if none is open). */
  closed(): Promise<void> {
    const socket = this.socket;
    if (socket === null || socket.destroyed) return Promise.resolve();
    return new Promise((resolve) => socket.once('close', () => resolve()));
  }

  /** Closes the connection from this side. */
  close(): void {
    if (this.socket !== null) this.drop(this.socket);
  }

  private drop(socket: Socket): void {
    socket.destroy();
    if (this.socket === socket) this.socket = null;
  }

  private connect(): Promise<Socket | 'refused' | string> {
    return new Promise((resolve) => {
      const socket = connect({ port: this.port, host: this.host, noDelay: true });
      // A reset before the handshake completes is a refusal too: the listening socket closed with this
      // connection still in its queue, before any byte of the request was sent.
      const onError = (error: NodeJS.ErrnoException): void =>
        resolve(
          error.code === 'ECONNREFUSED' || error.code === 'ECONNRESET'
            ? 'refused'
            : `${error.code ?? ''} ${error.message}`,
        );
      socket.once('error', onError);
      socket.once('connect', () => {
        socket.off('error', onError);
        socket.on('error', () => {}); // reported through 'close' by get()
        socket.once('close', () => {
          if (this.socket === socket) this.socket = null;
        });
        this.socket = socket;
        this.answered = 0;
        resolve(socket);
      });
    });
  }
}

function parseHead(
  text: string,
  bodyAt: number,
): { status: number; headers: Record<string, string>; bodyAt: number; length: number } {
  const [statusLine, ...rest] = text.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of rest) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}\n${value}` : value;
  }
  const length = headers['content-length'] === undefined ? -1 : Number(headers['content-length']);
  return { status: Number(statusLine.split(' ')[1]), headers, bodyAt, length };
}
