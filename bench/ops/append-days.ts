// The evening job of an operator, for the bench: the next trading day(s) appended to every market of
// a snapshot folder (each symbol that traded on the last day gets a row on each new weekday), to
// each market's klines.csv or as day files (`<market>/klines/<date>.csv`).

import { appendFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { MARKETS } from '../../engine/markets.js';

/** The weekday `n` weekdays after `date` (YYYY-MM-DD). */
export function weekdayAfter(date: string, n: number): string {
  let t = Date.parse(`${date}T00:00:00Z`);
  for (let k = 0; k < n; ) {
    t += 86_400_000;
    const day = new Date(t).getUTCDay();
    if (day !== 0 && day !== 6) k++;
  }
  return new Date(t).toISOString().slice(0, 10);
}

/**
 * The last date of each market's K-lines (klines.csv and its day files) and the rows of that date:
 * what the next days repeat. Reads the files whole (the bench's setup, not a measured step).
 */
async function lastDays(folder: string, market: string): Promise<{ header: string; date: string; rows: string[][] }> {
  const days = (await readdir(join(folder, market, 'klines')).catch(() => [] as string[])).filter((n) =>
    n.endsWith('.csv'),
  );
  const files = [join(folder, market, 'klines.csv'), ...days.sort().map((n) => join(folder, market, 'klines', n))];
  let header = '';
  let date = '';
  const last = new Map<string, string[]>();
  for (const path of files) {
    const lines = (await readFile(path, 'latin1')).split('\n');
    header = lines[0];
    const columns = header.split(',');
    const [s, d] = [columns.indexOf('symbol'), columns.indexOf('date')];
    for (let i = 1; i < lines.length; i++) {
      if (lines[i] === '') continue;
      const cells = lines[i].split(',');
      const before = last.get(cells[s]);
      if (before === undefined || before[d] < cells[d]) last.set(cells[s], cells);
      if (cells[d] > date) date = cells[d];
    }
  }
  const d = header.split(',').indexOf('date');
  return { header, date, rows: [...last.values()].filter((cells) => cells[d] === date) };
}

/**
 * Appends `days` trading days after each market's last to `folder`: to klines.csv, or (`dayFiles`)
 * as one file a day in `<market>/klines/`. Returns the rows added.
 */
export async function appendDays(folder: string, days: number, dayFiles = false): Promise<number> {
  let added = 0;
  for (const market of MARKETS) {
    const { header, date, rows } = await lastDays(folder, market).catch(() => ({ header: '', date: '', rows: [] }));
    if (rows.length === 0) continue;
    const d = header.split(',').indexOf('date');
    let out = '';
    for (let n = 1; n <= days; n++) {
      const day = weekdayAfter(date, n);
      let text = '';
      for (const cells of rows) {
        const next = [...cells];
        next[d] = day;
        text += `${next.join(',')}\n`;
        added++;
      }
      if (!dayFiles) out += text;
      else {
        await mkdir(join(folder, market, 'klines'), { recursive: true });
        await writeFile(join(folder, market, 'klines', `${day}.csv`), `${header}\n${text}`);
      }
    }
    if (out !== '') await appendFile(join(folder, market, 'klines.csv'), out);
  }
  return added;
}
