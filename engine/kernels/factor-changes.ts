// Adjustment events: the rows of one symbol whose adj_factor differs from the row before.

/**
 * Positions i in [from, to) whose `adj[i]` differs from `adj[i - 1]`, ascending. `rowsFrom`
 * is the symbol's first row: it has no row before it, so it is never an event, while a
 * window that starts later (`from` > `rowsFrom`) still compares its first row with the row
 * just before the window. Factors are compared as stored numbers (`1` and `1.000000` are
 * one factor); the loader stores no NaN factor (an empty cell is 1).
 */
export function factorChanges(adj: Float64Array, rowsFrom: number, from: number, to: number): Uint32Array {
  const first = Math.max(from, rowsFrom + 1);
  let count = 0;
  // count, then fill: rows.filter((i) => adj[i] !== adj[i - 1])
  for (let i = first; i < to; i++) if (adj[i] !== adj[i - 1]) count++;
  const rows = new Uint32Array(count);
  let n = 0;
  for (let i = first; i < to; i++) if (adj[i] !== adj[i - 1]) rows[n++] = i;
  return rows;
}
