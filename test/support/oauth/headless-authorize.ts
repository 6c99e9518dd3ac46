// A headless user at the authorization server: follows the authorization URL's redirects itself, logs an account in
// and consents through the server's interaction forms, and hands back the redirect URL the server sent (with code,
// state and iss) without opening it, as a browser would hand it to the host's callback.
import type { AuthorizeRequest } from '@airlock/core';

/** How the headless user behaves. */
export interface HeadlessUser {
  /** The account that logs in (default 'alice'). */
  readonly account?: string;
  /** Refuse consent: the server redirects back with error=access_denied. */
  readonly refuse?: boolean;
  /** Give up: `authorize` rejects, as a user closing the window. */
  readonly giveUp?: boolean;
  /** Changes the redirect URL before it is handed back (a forged state, a mixed-up issuer). */
  readonly tamper?: (redirect: URL) => void;
}

/** An `authorize` for `UserOAuthProvider`, and what it was asked. */
export interface HeadlessAuthorize {
  (request: AuthorizeRequest): Promise<URL>;
  readonly requests: AuthorizeRequest[];
}

/** A headless `Surface.authorize`. */
export function headlessAuthorize(user: HeadlessUser = {}): HeadlessAuthorize {
  const requests: AuthorizeRequest[] = [];
  const authorize = async (request: AuthorizeRequest): Promise<URL> => {
    requests.push(request);
    if (user.giveUp === true) throw new Error('the user closed the sign-in window');
    const back = await follow(request.authorizationUrl, user);
    user.tamper?.(back);
    return back;
  };
  return Object.assign(authorize, { requests });
}

async function follow(start: URL, user: HeadlessUser): Promise<URL> {
  const jar = new Map<string, string>();
  const cookie = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      jar.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
  };
  let url = start;
  let method = 'GET';
  let body: string | undefined;
  for (let hop = 0; hop < 20; hop += 1) {
    const response = await fetch(url, {
      method,
      redirect: 'manual',
      headers: {
        cookie: cookie(),
        ...(body === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(body === undefined ? {} : { body }),
    });
    keep(response);
    method = 'GET';
    body = undefined;
    if (response.status >= 300 && response.status < 400) {
      await response.body?.cancel();
      const next = new URL(response.headers.get('location')!, url);
      if (next.origin !== start.origin) return next;
      url = next;
      continue;
    }
    if (response.ok && url.pathname.startsWith('/interaction/')) {
      const { prompt } = (await response.json()) as { prompt: string };
      const action = user.refuse === true && prompt === 'consent' ? 'abort' : prompt === 'login' ? 'login' : 'consent';
      url = new URL(`${url.pathname}/${action}`, url);
      method = 'POST';
      body = new URLSearchParams({ account: user.account ?? 'alice' }).toString();
      continue;
    }
    throw new Error(
      `the authorization server answered HTTP ${response.status} at ${url.href}: ${await response.text()}`,
    );
  }
  throw new Error('the authorization server redirected more than 20 times');
}
