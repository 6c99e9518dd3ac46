// Signing in to a remote server with two console instances on one PostgreSQL database (test/support/postgres) behind
// one public address: the sign-in starts on A, the authorization server (a real oidc-provider) sends the user back,
// and the load balancer hands the callback to B. B sends the redirect to A, whose sign-in waits for it; A finishes it
// and B's page says so; the user's calls on A then reach the server as them.
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
import { startPostgres } from '../../../test/support/postgres/postgres-server.js';
import type { PostgresServer } from '../../../test/support/postgres/postgres-server.js';
import { ConsoleClient } from './testing/console-client.js';
import { postSignInFinish } from './testing/sign-in-finish.js';

/** The address users reach both instances at (a load balancer's); nothing listens there in this test. */
const PUBLIC_URL = 'http://127.0.0.1:9';

let db: PostgresServer;
let as: AuthorizationServer;
let mcp: ProtectedMcpServer;
let dir: string;
const consoles: RunningConsole[] = [];

beforeAll(async () => {
  db = await startPostgres();
  as = await startAuthorizationServer();
  mcp = await startProtectedMcpServer({ authorizationServer: as });
  dir = await mkdtemp(join(tmpdir(), 'airlock-console-oauth-instances-'));
}, 60_000);

afterAll(async () => {
  for (const running of consoles) await running.close();
  await mcp?.close();
  await as?.close();
  await db?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('signing in to a remote server across two console instances', () => {
  it('finishes on the instance that started it a sign-in whose user came back to the other', async () => {
    const storeUrl = await db.createDatabase();
    // One key beside the history for both (as AIRLOCK_SECRET_KEY would be), so either can read the tokens.
    const config = {
      ...oauthConsoleConfig(mcp.url, join(dir, 'airlock.db'), 'sign-in instances', PUBLIC_URL),
      storeUrl,
    };
    for (let i = 0; i < 2; i += 1) {
      const running = await startConsole(config);
      consoles.push(running);
      await running.host.servers.settled();
    }
    const [a, b] = consoles as [RunningConsole, RunningConsole];
    const onA = await ConsoleClient.signIn(a.url, { userId: 'ana' });

    const started = await onA.post('/api/servers/notes/sign-in');
    expect(started.status).toBe(200);
    const authorizationUrl = new URL((started.body as { authorizationUrl: string }).authorizationUrl);
    const back = await headlessAuthorize({ account: 'ana' })({ serverId: 'notes', authorizationUrl });
    expect(back.origin + back.pathname).toBe(new URL('/oauth/callback', PUBLIC_URL).href);

    // The finish page's form, posted to B with the same browser's session cookie.
    const finished = await postSignInFinish(b.url, { cookie: onA.cookie, redirect: back });
    expect(finished.status).toBe(200);
    expect(await finished.text()).toContain('Signed in to notes');

    const call = await a.host.invoke({
      scope: { userId: 'ana', workspaceId: onA.workspaceId, conversationId: 'c1' },
      caller: { kind: 'user' },
      tool: 'notes__whoami',
      args: {},
    });
    expect(call.outcome).toBe('success');
    expect(call.text).toMatch(/account "?ana"?/);
  }, 90_000);
});
