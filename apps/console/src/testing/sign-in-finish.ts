/**
 * Posts the console's "finish signing in" form, as the browser does once the authorization server has sent the user
 * back: the redirect in a url-encoded body, the session's cookie, and the page's origin (the console's own unless
 * told; `null` sends none, as a page elsewhere might).
 */
export function postSignInFinish(
  consoleUrl: string,
  options: { readonly cookie: string; readonly redirect: URL; readonly origin?: string | null },
): Promise<Response> {
  const origin = options.origin === undefined ? new URL(consoleUrl).origin : options.origin;
  return fetch(new URL('/oauth/callback', consoleUrl), {
    method: 'POST',
    headers: {
      cookie: options.cookie,
      'content-type': 'application/x-www-form-urlencoded',
      ...(origin === null ? {} : { origin }),
    },
    body: new URLSearchParams({ redirect: options.redirect.href }).toString(),
  });
}
