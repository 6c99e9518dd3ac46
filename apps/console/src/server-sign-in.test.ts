import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import {
  headlessAuthorize,
  startAuthorizationServer,
  startProtectedMcpServer,
} from '../../../test/support/oauth/index.js';
import type { AuthorizationServer, ProtectedMcpServer } from '../../../test/support/oauth/index.js';
import { oauthConsoleConfig } from '../../../test/support/oauth/oauth-console-config.js';
import { ConsoleClient } from './testing/console-client.js';
import { postSignInFinish } from './testing/sign-in-finish.js';

// The console's sign-in to a remote server, over HTTP as a browser does it: the tab starts the sign-in and gets the
// authorization URL; the user (headless here) signs in at a real oidc-provider, which sends them back to the console's
// callback; the callback page posts the redirect with the session cookie, and the console finishes the sign-in.

/** The process's own fetch classes, taken before any console listens. */
const processResponse = globalThis.Response;
const processRequest = globalThis.Request;

let as: AuthorizationServer;
let mcp: ProtectedMcpServer;
let running: RunningConsole;
let dir: string;

beforeAll(async () => {
  as = await startAuthorizationServer();
  mcp = await startProtectedMcpServer({ authorizationServer: as });
  dir = await mkdtemp(join(tmpdir(), 'airlock-console-oauth-'));
  running = await startConsole(oauthConsoleConfig(mcp.url, join(dir, 'airlock.db'), 'sign-in test'));
  await running.host.servers.settled();
});

afterAll(async () => {
  await running.close();
  await mcp.close();
  await as.close();
  await rm(dir, { recursive: true, force: true });
});

/** Signs `client`'s user in to notes as `account`, the way the popup does; returns the page the console showed. */
async function signInThroughPopup(client: ConsoleClient, account: string, tamper?: (url: URL) => void) {
  const started = await client.post('/api/servers/notes/sign-in');
  expect(started.status).toBe(200);
  const authorizationUrl = new URL((started.body as { authorizationUrl: string }).authorizationUrl);
  const back = await headlessAuthorize({ account, ...(tamper === undefined ? {} : { tamper }) })({
    serverId: 'notes',
    authorizationUrl,
  });
  expect(back.pathname).toBe('/oauth/callback');
  // The authorization server's redirect lands on the callback page, which asks the user to finish there.
  const landing = await fetch(back);
  expect(landing.status).toBe(200);
  expect(await landing.text()).toContain('Finish signing in');
  const finished = await postSignInFinish(running.url, { cookie: client.cookie, redirect: back });
  return { status: finished.status, text: await finished.text() };
}

const whoami = (client: ConsoleClient) =>
  running.host.invoke({
    scope: { userId: client.userId, workspaceId: client.workspaceId, conversationId: 'c1' },
    caller: { kind: 'user' },
    tool: 'notes__whoami',
    args: {},
  });

describe('signing in to a remote server from the console', () => {
  it('signs a user in through the popup flow; their calls then reach the server as them', async () => {
    const ana = await ConsoleClient.signIn(running.url, { userId: 'ana' });
    const before = (await ana.get('/api/servers')).body as { id: string; state: string }[];
    expect(before[0]).toMatchObject({ id: 'notes', state: 'needs_auth', isolation: 'user' });
    const page = await signInThroughPopup(ana, 'ana');
    expect(page.status).toBe(200);
    expect(page.text).toContain('Signed in to notes');
    const servers = (await ana.get('/api/servers')).body as { id: string; state: string }[];
    expect(servers[0]).toMatchObject({ id: 'notes', state: 'ready' });
    expect(((await ana.get('/api/server-auth')).body as { signedIn: boolean }[])[0]?.signedIn).toBe(true);
    const call = await whoami(ana);
    expect(call.outcome).toBe('success');
    expect(call.text).toMatch(/account "?ana"?/);
  });

  it("refuses to finish a sign-in in another user's session, and keeps nothing", async () => {
    const ben = await ConsoleClient.signIn(running.url, { userId: 'ben' });
    const eve = await ConsoleClient.signIn(running.url, { userId: 'eve' });
    const started = await ben.post('/api/servers/notes/sign-in');
    const back = await headlessAuthorize({ account: 'ben' })({
      serverId: 'notes',
      authorizationUrl: new URL((started.body as { authorizationUrl: string }).authorizationUrl),
    });
    const finished = await postSignInFinish(running.url, { cookie: eve.cookie, redirect: back });
    expect(finished.status).toBe(400);
    expect(await finished.text()).toContain('started by another user');
    for (const who of [ben, eve]) {
      expect(((await who.get('/api/server-auth')).body as { signedIn: boolean }[])[0]?.signedIn).toBe(false);
    }
  });

  it('refuses a finish posted from another origin (or none), and the waiting sign-in still completes', async () => {
    const fay = await ConsoleClient.signIn(running.url, { userId: 'fay' });
    const started = await fay.post('/api/servers/notes/sign-in');
    const back = await headlessAuthorize({ account: 'fay' })({
      serverId: 'notes',
      authorizationUrl: new URL((started.body as { authorizationUrl: string }).authorizationUrl),
    });
    for (const origin of ['https://evil.example', 'null', undefined]) {
      const forged = await postSignInFinish(running.url, {
        cookie: fay.cookie,
        redirect: back,
        origin: origin ?? null,
      });
      expect({ origin, status: forged.status }).toEqual({ origin, status: 403 });
    }
    const finished = await postSignInFinish(running.url, { cookie: fay.cookie, redirect: back });
    expect(await finished.text()).toContain('Signed in to notes');
  });

  it("leaves the process's own Response and Request in place while it listens", () => {
    expect(globalThis.Response).toBe(processResponse);
    expect(globalThis.Request).toBe(processRequest);
  });

  it("speaks the user's language on the pages the sign-in ends on", async () => {
    const pt = await fetch(new URL('/oauth/callback?state=s&code=c', running.url), {
      headers: { 'accept-language': 'pt-BR,pt;q=0.9' },
    });
    const html = await pt.text();
    expect(html).toContain('lang="pt-BR"');
    expect(html).toContain('Concluir o login');
    const none = await fetch(new URL('/oauth/callback', running.url));
    expect(none.status).toBe(400);
    expect(await none.text()).toContain('it was opened without one');
  });

  it('serves its client metadata document, naming its callback', async () => {
    const response = await fetch(new URL('/oauth/client-metadata.json', running.url));
    const document = (await response.json()) as { client_id: string; redirect_uris: string[] };
    expect(document.client_id).toBe(new URL('/oauth/client-metadata.json', running.url).href);
    expect(document.redirect_uris).toEqual([new URL('/oauth/callback', running.url).href]);
  });

  it('says a wrong state is unknown, and signs out with revocation', async () => {
    const cy = await ConsoleClient.signIn(running.url, { userId: 'cy' });
    const forged = await signInThroughPopup(cy, 'cy', (url) => url.searchParams.set('state', 'forged'));
    expect(forged.status).toBe(400);
    expect(forged.text).toContain('unknown or has expired');
    const page = await signInThroughPopup(cy, 'cy');
    expect(page.text).toContain('Signed in to notes');
    const out = await cy.post('/api/servers/notes/sign-out');
    expect(out.body).toMatchObject({ revocation: 'revoked' });
    expect(((await cy.get('/api/server-auth')).body as { signedIn: boolean }[])[0]?.signedIn).toBe(false);
  });
});

describe('after a restart of the console', () => {
  it("opens a signed-in user's own connection when their tab opens, with the tokens kept beside the history", async () => {
    const erin = await ConsoleClient.signIn(running.url, { userId: 'erin' });
    expect((await signInThroughPopup(erin, 'erin')).text).toContain('Signed in to notes');
    // A second console on the same history file and key: as the first one would be after a restart.
    const restarted = await startConsole(oauthConsoleConfig(mcp.url, join(dir, 'airlock.db'), 'restarted console'));
    try {
      await restarted.host.servers.settled();
      const again = await ConsoleClient.signIn(restarted.url, { userId: 'erin' });
      const tab = await again.openEvents();
      await tab.waitFor(
        (e) => e.event === 'server.state' && (e.data as { state?: string }).state === 'ready',
        "erin's own connection to notes, ready",
      );
      await tab.close();
      const servers = (await again.get('/api/servers')).body as { id: string; state: string }[];
      expect(servers[0]).toMatchObject({ id: 'notes', state: 'ready' });
    } finally {
      await restarted.close();
    }
  });
});

describe('signing in behind a proxy (console.publicUrl)', () => {
  it('sends the user back to the public address, and finishes the sign-in when the proxy hands the callback on', async () => {
    const publicUrl = 'https://airlock.example.test';
    const proxied = await startConsole(
      oauthConsoleConfig(mcp.url, join(dir, 'proxied.db'), 'sign-in behind a proxy', publicUrl),
    );
    try {
      await proxied.host.servers.settled();
      const dee = await ConsoleClient.signIn(proxied.url, { userId: 'dee' });
      const started = await dee.post('/api/servers/notes/sign-in');
      const authorizationUrl = new URL((started.body as { authorizationUrl: string }).authorizationUrl);
      expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(`${publicUrl}/oauth/callback`);
      const back = await headlessAuthorize({ account: 'dee' })({ serverId: 'notes', authorizationUrl });
      expect(back.origin).toBe(publicUrl);
      // The proxy hands https://airlock.example.test/oauth/callback?… to the console, which sees its own address.
      const landing = await fetch(new URL(`/oauth/callback${back.search}`, proxied.url));
      const form = /name="redirect" value="([^"]+)"/.exec(await landing.text());
      expect(form?.[1]?.replaceAll('&amp;', '&')).toBe(back.href);
      const finished = await postSignInFinish(proxied.url, { cookie: dee.cookie, redirect: back, origin: publicUrl });
      expect(await finished.text()).toContain('Signed in to notes');
    } finally {
      await proxied.close();
    }
  });
});
