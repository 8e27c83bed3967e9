// Query strings the way the service reads them: lists comma-separated (`symbols=a,b`), screen
// bounds as their own parameters (`min_pe_ratio=5`), dates as given, nothing for undefined.

/** A value a query parameter may take: lists join with commas, objects (screen bounds) spread into their keys. */
export type QueryValue =
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly (string | number)[]
  | Record<string, unknown>;

/** `?a=1&symbols=x,y&min_pe_ratio=5`, or '' when nothing is set. */
export function queryString(query: Readonly<Record<string, QueryValue>> = {}): string {
  const parts: string[] = [];
  const add = (name: string, value: unknown): void => {
    if (value === undefined || value === null) return;
    parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(String(value))}`);
  };
  for (const [name, value] of Object.entries(query)) {
    if (Array.isArray(value)) {
      if (value.length > 0) add(name, value.join(','));
    } else if (typeof value === 'object' && value !== null) {
      for (const [key, inner] of Object.entries(value)) add(key, inner); // exploded: `bounds: {min_pe_ratio: 5}` → min_pe_ratio=5
    } else add(name, value);
  }
  return parts.length === 0 ? '' : `?${parts.join('&')}`;
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
