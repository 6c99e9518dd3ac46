import type { Host } from '@airlock/core';
import { formatMessage } from '@airlock/core/i18n';
import type { Locale, MessageKey } from '@airlock/core/i18n';
import type { Context } from 'hono';
import { getCookie } from 'hono/cookie';
import type { ConsoleSignIn, SignInOutcome } from '../console-sign-in.js';
import type { Sessions } from '../sessions.js';
import type { ApiApp } from './api-app.js';
import { scopeOf } from './request-input.js';
import { SESSION_COOKIE } from './session-routes.js';

/** Where authorization servers send users back to the console. */
export const OAUTH_CALLBACK_PATH = '/oauth/callback';
/**
 * The callback pages' one script, served from the console (no inline script): the finish page posts its form by
 * itself, and the page that says the sign-in is done closes the popup, so the user clicks nothing after consenting.
 */
export const OAUTH_PAGE_SCRIPT_PATH = '/oauth/sign-in-page.js';
const PAGE_SCRIPT =
  "const finish = document.querySelector('form[data-finish]');\n" +
  'if (finish) finish.submit();\n' +
  "else if (document.body.dataset.signedIn === 'true') window.close();\n";

/** The console's OAuth Client ID Metadata Document: its URL is its client id, where an authorization server takes one. */
export const OAUTH_CLIENT_METADATA_PATH = '/oauth/client-metadata.json';

/** What the server sign-in routes work with. */
export interface ServerAuthRoutesOptions {
  readonly app: ApiApp;
  readonly host: Host;
  readonly signIn: ConsoleSignIn;
  readonly sessions: Sessions;
  readonly publicUrl: () => string;
}

/**
 * Signing in to remote servers: a tab starts a sign-in and opens the authorization URL it is given in a popup; the
 * authorization server sends the popup back to the callback, whose page finishes by itself (its script posts a form
 * from the console's own page, so the SameSite=Strict session cookie comes with it and the sign-in is finished only
 * for the user who started it; the button stays for a browser without scripts), then closes the popup once signed
 * in; sign-out and each user's sign-in state.
 */
export function mountServerAuthRoutes({ app, host, signIn, sessions, publicUrl }: ServerAuthRoutesOptions): void {
  app.get(OAUTH_CLIENT_METADATA_PATH, (c) => {
    const base = publicUrl();
    return c.json({
      client_id: `${base}${OAUTH_CLIENT_METADATA_PATH}`,
      client_name: 'Airlock console',
      client_uri: base,
      redirect_uris: [`${base}${OAUTH_CALLBACK_PATH}`],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    });
  });
  app.get(OAUTH_PAGE_SCRIPT_PATH, (c) =>
    c.body(PAGE_SCRIPT, 200, { 'content-type': 'text/javascript; charset=utf-8' }),
  );
  app.post('/api/servers/:id/sign-in', async (c) => c.json(await signIn.start(scopeOf(c), c.req.param('id'))));
  app.post('/api/servers/:id/sign-out', async (c) =>
    c.json(await host.auth.signOut({ scope: scopeOf(c), serverId: c.req.param('id') })),
  );
  app.get('/api/server-auth', async (c) => c.json(await host.auth.status({ scope: scopeOf(c) })));

  app.get(OAUTH_CALLBACK_PATH, (c) => {
    // Rebuilt on the console's public address (behind a proxy the request's own URL is not the one users reach, and
    // the redirect must be the exact URL the sign-in was started with).
    const back = new URL(`${OAUTH_CALLBACK_PATH}${new URL(c.req.url).search}`, publicUrl());
    const say = sayer(c.req.header('accept-language'));
    if (back.searchParams.get('state') === null) {
      return c.html(page(say, 'mcp.signin.title', say('mcp.signin.no_flow')), 400);
    }
    return c.html(
      page(
        say,
        'mcp.signin.finish_title',
        say('mcp.signin.finish_text'),
        `<form method="post" action="${OAUTH_CALLBACK_PATH}" data-finish><input type="hidden" name="redirect" value="${escape(back.href)}">` +
          `<button type="submit">${escape(say('mcp.signin.finish_button'))}</button></form>`,
      ),
    );
  });
  app.post(OAUTH_CALLBACK_PATH, async (c) => {
    const say = sayer(c.req.header('accept-language'));
    // Only the console's own finish page may post here: a browser names the page's origin, and a page elsewhere that
    // learnt the state cannot end (or cancel) the user's waiting sign-in.
    const origin = c.req.header('origin');
    if (origin === undefined || (origin !== new URL(publicUrl()).origin && origin !== new URL(c.req.url).origin)) {
      return c.html(page(say, 'mcp.signin.title', say('mcp.signin.unknown')), 403);
    }
    // Only the form the finish page posts is read (url-encoded): anything else is refused as the client's mistake.
    if (!(c.req.header('content-type') ?? '').toLowerCase().startsWith('application/x-www-form-urlencoded')) {
      return c.html(page(say, 'mcp.signin.title', say('mcp.signin.no_address')), 415);
    }
    const redirect = new URLSearchParams(await c.req.text()).get('redirect') ?? '';
    let back: URL;
    try {
      // Only the query is taken from the form: the address is the console's own callback, never one the form names.
      back = new URL(`${OAUTH_CALLBACK_PATH}${new URL(redirect).search}`, publicUrl());
    } catch {
      return c.html(page(say, 'mcp.signin.title', say('mcp.signin.no_address')), 400);
    }
    const session = await sessions.get(getCookie(c as Context, SESSION_COOKIE));
    const scope =
      session === undefined
        ? undefined
        : { userId: session.userId, workspaceId: session.workspaceId, conversationId: 'sign-in' };
    const outcome = await signIn.callback(scope, back);
    return c.html(result(say, outcome), outcome.ended === 'signed_in' ? 200 : 400);
  });
}

type Say = ((key: MessageKey, params?: Readonly<Record<string, string>>) => string) & { readonly locale: Locale };

/** The callback pages speak the user's language as the console's page does: Portuguese when preferred, else English. */
function sayer(acceptLanguage: string | undefined): Say {
  const locale: Locale = /^pt\b/i.test(acceptLanguage ?? '') ? 'pt-BR' : 'en-US';
  return Object.assign(
    (key: MessageKey, params?: Readonly<Record<string, string>>) => formatMessage(locale, key, params),
    {
      locale,
    },
  );
}

function result(say: Say, outcome: SignInOutcome): string {
  const server = outcome.serverId;
  switch (outcome.ended) {
    case 'signed_in':
      return page(say, 'mcp.signin.done_title', say('mcp.signin.done', { server }), '', true);
    case 'failed':
      return page(say, 'mcp.signin.failed_title', say('mcp.signin.failed', { server, reason: outcome.reason ?? '' }));
    case 'unknown':
      return page(say, 'mcp.signin.title', say('mcp.signin.unknown'));
    case 'other_user':
      return page(say, 'mcp.signin.title', say('mcp.signin.other_user'));
  }
}

function page(say: Say, titleKey: MessageKey, message: string, more = '', signedIn = false): string {
  const title = say(titleKey);
  return (
    `<!doctype html><html lang="${say.locale}"><head><meta charset="utf-8"><title>${escape(title)} · Airlock</title>` +
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head>' +
    `<body data-signed-in="${signedIn ? 'true' : 'false'}"><main><h1>${escape(title)}</h1>` +
    `<p role="status">${escape(message)}</p>${more}</main><script src="${OAUTH_PAGE_SCRIPT_PATH}"></script></body></html>`
  );
}

function escape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (ch) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[ch] ?? ch,
  );
}
