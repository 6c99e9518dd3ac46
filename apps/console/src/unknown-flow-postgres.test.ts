// A sign-in `state` or a URL flow's "done, retry" that no instance holds, sent to a console on a shared PostgreSQL
// database, is answered at once from the flows the instances recorded (held_flows), without asking the others and
// waiting out the reply timeout; one another instance holds is still sent there. What instances tell each other is
// watched by a trigger copying each row of question_news as it is written.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
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

const PUBLIC_URL = 'http://127.0.0.1:9';

let db: PostgresServer;
let as: AuthorizationServer;
let mcp: ProtectedMcpServer;
let dir: string;
let watcher: pg.Client | undefined;
const consoles: RunningConsole[] = [];

beforeAll(async () => {
  db = await startPostgres();
  as = await startAuthorizationServer();
  mcp = await startProtectedMcpServer({ authorizationServer: as });
  dir = await mkdtemp(join(tmpdir(), 'airlock-console-unknown-flow-'));
}, 60_000);

afterAll(async () => {
  await watcher?.end();
  for (const running of consoles) await running.close();
  await mcp?.close();
  await as?.close();
  await db?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Copies every row told between instances into `told`, from now on. */
async function watchTold(client: pg.Client): Promise<void> {
  await client.query(`
    CREATE TABLE told (news TEXT NOT NULL);
    CREATE FUNCTION copy_told() RETURNS trigger AS $$ BEGIN INSERT INTO told VALUES (NEW.news); RETURN NEW; END $$
      LANGUAGE plpgsql;
    CREATE TRIGGER copy_told AFTER INSERT ON question_news FOR EACH ROW EXECUTE FUNCTION copy_told();
  `);
}

/** The kinds of the requests told so far (not the questions' own news). */
async function requestsTold(client: pg.Client): Promise<string[]> {
  const { rows } = await client.query<{ news: string }>('SELECT news FROM told');
  return rows
    .map((row) => (JSON.parse(row.news) as { kind: string }).kind)
    .filter((kind) => kind === 'signin.redirect' || kind === 'urlflow.done');
}

describe('a flow no instance holds, on two consoles sharing PostgreSQL', () => {
  it('is answered unknown at once, asking no other instance; a held one is still sent to its holder', async () => {
    const storeUrl = await db.createDatabase();
    const config = {
      ...oauthConsoleConfig(mcp.url, join(dir, 'airlock.db'), 'unknown flows', PUBLIC_URL),
      storeUrl,
    };
    for (let i = 0; i < 2; i += 1) {
      const running = await startConsole(config);
      consoles.push(running);
      await running.host.servers.settled();
    }
    const [a, b] = consoles as [RunningConsole, RunningConsole];
    watcher = new pg.Client({ connectionString: storeUrl });
    await watcher.connect();
    await watchTold(watcher);
    const onA = await ConsoleClient.signIn(a.url, { userId: 'ana' });

    // Unknown everywhere: B says so without telling A anything.
    const unknown = new URL('/oauth/callback?state=nobody-started-this&code=x', PUBLIC_URL);
    const refused = await postSignInFinish(b.url, { cookie: onA.cookie, redirect: unknown });
    expect(await refused.text()).toContain('This sign-in is unknown or has expired');
    const done = await onA.at(b.url).post('/api/elicitations/no-such-flow/done');
    expect(done.status).toBe(404);
    expect(await requestsTold(watcher)).toEqual([]);

    // Started on A and brought back to B: A holds it, so B sends it there, and A finishes it.
    const started = await onA.post('/api/servers/notes/sign-in');
    const authorizationUrl = new URL((started.body as { authorizationUrl: string }).authorizationUrl);
    const back = await headlessAuthorize({ account: 'ana' })({ serverId: 'notes', authorizationUrl });
    const finished = await postSignInFinish(b.url, { cookie: onA.cookie, redirect: back });
    expect(await finished.text()).toContain('Signed in to notes');
    expect(await requestsTold(watcher)).toEqual(['signin.redirect']);
    // Finished: A no longer holds it.
    const { rows } = await watcher.query('SELECT id FROM held_flows');
    expect(rows).toEqual([]);
  }, 90_000);
});
