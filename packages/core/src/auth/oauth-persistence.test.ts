import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { OAuthWorld, resultText } from '../../../../test/support/oauth/index.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { isAuthRequired } from './auth-errors.js';
import { signIn } from './oauth-sign-in.js';
import { authStatus } from './oauth-sign-out.js';
import { TokenVault } from './token-vault.js';

describe('OAuth credentials in a SQLite store', () => {
  let world: OAuthWorld | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await world?.close();
    if (dir !== undefined) await rm(dir, { recursive: true, force: true });
    world = undefined;
  });

  it('keeps a user signed in across a restart of the host, and only with the same key', async () => {
    world = await OAuthWorld.open();
    dir = await mkdtemp(join(tmpdir(), 'airlock-oauth-'));
    const file = join(dir, 'airlock.db');
    const keyFile = join(dir, 'secret.key');
    const vault = await TokenVault.open({ env: {}, keyFile });
    const first = new SqliteStore({ database: new Database(file) });
    await signIn(world.provider('alice', {}, { store: first, vault }));
    await first.close();

    const reopened = new SqliteStore({ database: new Database(file) });
    try {
      const again = world.provider(
        'alice',
        {},
        { store: reopened, vault: await TokenVault.open({ env: {}, keyFile }) },
      );
      const client = await world.connect(again);
      expect(resultText(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('account "alice"');
      expect(
        world.as.log.token.map((t) => t.grant),
        'no second sign-in',
      ).toEqual(['authorization_code']);

      const otherKey = world.provider('alice', {}, { store: reopened, vault: TokenVault.fromKey(randomBytes(32)) });
      expect(await authStatus(otherKey)).toMatchObject({
        signedIn: false,
        error: expect.stringMatching(/another secret key/),
      });
      const callError: unknown = await world.connect(otherKey).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(isAuthRequired(callError), String(callError)).toBe(true);
      await signIn(otherKey);
      expect(await authStatus(otherKey), 'signing in again replaces what the old key sealed').toMatchObject({
        signedIn: true,
      });
    } finally {
      await reopened.close();
    }
  });
});
