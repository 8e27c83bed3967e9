// The Host check every dashboard request passes first, against DNS rebinding.

import { isIPv4, isIPv6 } from 'node:net';
import { Problem } from '../problem.js';

/*
 * Why: a page at http://evil.example:8080 whose name the attacker then re-points at 127.0.0.1
 * is, to the browser, the same origin before and after; its requests reach the dashboard with
 * Host and Origin both `evil.example:8080`, so a same-origin Origin check passes. The Host a
 * request names is what tells it apart: with ADMIN_ORIGIN only that origin's host[:port] is
 * served; without it only IP literals and `localhost`, which no attacker's DNS answers for.
 */

const DEFAULT_PORT: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** `host` is an IP literal (dotted quad or bracketed IPv6) or `localhost`, with an optional port. */
function loopbackSafe(host: string): boolean {
  let name = host;
  let port = '';
  if (host.startsWith('[')) {
    const end = host.indexOf(']');
    if (end < 0) return false;
    name = host.slice(1, end);
    port = host.slice(end + 1);
    if (!isIPv6(name)) return false;
  } else {
    const colon = host.indexOf(':');
    if (colon >= 0) [name, port] = [host.slice(0, colon), host.slice(colon)];
    if (!isIPv4(name) && name !== 'localhost') return false;
  }
  return port === '' || /^:\d{1,5}$/.test(port);
}

/** The Host values ADMIN_ORIGIN allows: its host[:port], and the bare host when the port is the scheme's default. */
function configuredHosts(configured: string): Set<string> {
  const url = new URL(configured);
  const allowed = new Set([`${url.hostname}:${url.port === '' ? DEFAULT_PORT[url.protocol] : url.port}`]);
  if (url.port === '') allowed.add(url.hostname);
  return allowed;
}

/**
 * The Host check, compiled once from ADMIN_ORIGIN (`null`: unset): given a request's Host
 * ('' when absent), null when it may be served, else the 403 forbidden_host to answer.
 * Set: only its host[:port] (the scheme's default port optional). Unset: an IP literal or
 * `localhost`, any port. Compared case-insensitively.
 */
export function hostCheck(configured: string | null): (host: string) => Problem | null {
  const hosts = configured === null ? null : configuredHosts(configured);
  const allowed = (host: string): boolean => (hosts === null ? loopbackSafe(host) : hosts.has(host));
  const why =
    configured === null
      ? 'without ADMIN_ORIGIN the dashboard answers only at an IP address or localhost'
      : `the Host is not that of ADMIN_ORIGIN (${configured})`;
  return (host) => {
    if (host !== '' && allowed(host.toLowerCase())) return null;
    return new Problem(
      'forbidden_host',
      `${host === '' ? 'the request has no Host header' : why}; to reach the dashboard by name, set ADMIN_ORIGIN to the dashboard's public origin (e.g. https://ops.example)`,
    );
  };
}
