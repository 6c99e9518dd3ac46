import type { FetchLike } from '@modelcontextprotocol/client';
import { authFailed } from './auth-errors.js';
import type { AuthStep } from './auth-errors.js';

/** True for a host name that stays on this machine. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** What a guarded fetch reports a refusal to: the step under way, and where to keep the refusal. */
export interface FetchGuard {
  readonly step: AuthStep;
  refused?: Error;
}

/**
 * A fetch for OAuth traffic that refuses plain http except to loopback (the MCP authorization spec requires https
 * for authorization servers; a local development server on 127.0.0.1 or localhost is the one exception), and any
 * scheme but http and https. The refusal is an `auth_failed` error naming the server and the step, kept in `guard`
 * too, since the SDK's discovery may swallow a failed fetch and try the next URL.
 *
 * Give it to the transport (`fetch`) so that refreshes run through it as well as sign-ins.
 */
export function httpsOnlyFetch(serverId: string, base: FetchLike = fetch, guard?: FetchGuard): FetchLike {
  const check = (url: URL): Error | undefined => {
    const secure = url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname));
    if (secure) return undefined;
    const error = authFailed(
      serverId,
      guard?.step ?? 'discovery',
      `refused ${url.protocol.replace(':', '')} to ${url.origin}: an authorization server, and a server that ` +
        'takes OAuth tokens, must use https (plain http is allowed on loopback only)',
    );
    if (guard !== undefined) guard.refused ??= error;
    return error;
  };
  return async (input, init) => {
    let url = new URL(input instanceof URL ? input.href : String(input));
    const refused = check(url);
    if (refused !== undefined) throw refused;
    // Redirects are followed here, each hop checked like the first: fetch's own following would take an https
    // request on to plain http unseen.
    if (init?.redirect === 'manual' || init?.redirect === 'error') return base(input, init);
    let request: RequestInit = { ...init, redirect: 'manual' };
    for (let hop = 0; ; hop++) {
      const response = await base(url, request);
      const location = response.headers.get('location');
      if (!REDIRECTS.has(response.status) || location === null) return response;
      if (hop === MAX_REDIRECTS) {
        throw authFailed(
          serverId,
          guard?.step ?? 'discovery',
          `more than ${MAX_REDIRECTS} redirects from ${url.origin}`,
        );
      }
      await response.body?.cancel().catch(() => undefined);
      url = new URL(location, url);
      const next = check(url);
      if (next !== undefined) throw next;
      // As fetch does: a 303 (and a 301 or 302 after a POST) goes on as a GET without the body.
      const method = (request.method ?? 'GET').toUpperCase();
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) {
        request = { ...request, method: 'GET' };
        delete request.body;
      }
    }
  };
}

const REDIRECTS: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;

/** How long one request of a sign-in or sign-out may take (an authorization server that hangs is given up). */
export const OAUTH_REQUEST_TIMEOUT_MS = 30_000;

/**
 * A fetch whose every request is aborted after `ms` (with the caller's own signal kept): for the short requests of a
 * sign-in or sign-out, never for the transport's long-lived streams.
 */
export function timedFetch(base: FetchLike = fetch, ms = OAUTH_REQUEST_TIMEOUT_MS): FetchLike {
  return (input, init) => {
    const timeout = AbortSignal.timeout(ms);
    const signal = init?.signal == null ? timeout : AbortSignal.any([init.signal, timeout]);
    return base(input, { ...init, signal });
  };
}
