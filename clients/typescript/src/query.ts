// Query strings the way the service reads them: lists comma-separated (`symbols=a,b`), screen
// bounds as their own parameters (`min_pe_ratio=5`), dates as given, nothing for undefined; the same
// parameters as one flat object for a standing screen's `query` (the stream's subscribe message).

/** A value a query parameter may take: lists join with commas, objects (screen bounds) spread into their keys. */
export type QueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number)[]
  | Record<string, unknown>;

/** The parameters as the server reads them, in order: lists joined with commas, objects (screen bounds) spread into their keys, nothing for undefined or null. */
function parameters(query: Readonly<Record<string, QueryValue>>): [string, string | number][] {
  const out: [string, string | number][] = [];
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    out.push([name, typeof value === 'number' ? value : String(value)]);
  };
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) {
      if (value.length > 0) add(name, value.join(','));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) add(key, inner); // exploded: `bounds: {min_pe_ratio: 5}` → min_pe_ratio=5
    } else add(name, value);
  }
  return out;
}

/** `?a=1&symbols=x,y&min_pe_ratio=5`, or '' when nothing is set. */
export function queryString(query: Readonly<Record<string, QueryValue>> = {}): string {
  const parts = parameters(query).map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
}

/** The same parameters as one object of strings and numbers: `{ a: 1, symbols: 'x,y', min_pe_ratio: 5 }`. */
export function flatQuery(query: Readonly<Record<string, QueryValue>> = {}): Record<string, string | number> {
  return Object.fromEntries(parameters(query));
}

/** Screen bounds (`{ pe_ratio: { min: 0, max: 15 } }`) spread into their min_/max_ parameters beside the others. */
export function screenQuery(
  query: Readonly<{ bounds?: object } & Record<string, unknown>>,
): Record<string, QueryValue> {
  const { bounds, ...rest } = query;
  const spread: Record<string, number> = {};
  for (const [column, { min, max }] of Object.entries(bounds ?? {}) as [string, { min?: number; max?: number }][]) {
    if (min !== undefined) spread[`min_${column}`] = min;
    if (max !== undefined) spread[`max_${column}`] = max;
  }
  return { ...(rest as Record<string, QueryValue>), bounds: spread };
}

/** The target of `Link: <…>; rel="next"`, or null. */
export function nextLink(header: string | null): string | null {
  if (header === null) return null;
  for (const part of header.split(',')) {
    const m = /^\s*<([^>]*)>\s*;\s*rel="?next"?\s*$/.exec(part);
    if (m !== null) return m[1];
  }
  return null;
}
