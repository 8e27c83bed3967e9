// One plain GET on its own connection, body kept as bytes: how the harness reads the case's exact response.

import { request } from 'node:http';

export interface GetResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The headers as sent: name, value, name, value, … in order, names as spelled. */
  rawHeaders: string[];
  body: Buffer;
}

export function httpGet(url: string, headers: Record<string, string> = {}, timeoutMs = 10_000): Promise<GetResult> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'GET', headers: { connection: 'close', ...headers }, agent: false, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            rawHeaders: res.rawHeaders,
            body: Buffer.concat(chunks),
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`GET ${url}: no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end();
  });
}
