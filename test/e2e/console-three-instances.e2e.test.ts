// Three console instances, each a process of its own (the built bin), on one PostgreSQL database (a real server,
// started by test/support/postgres), and pages of two of them in a real Chromium: a call started on instance A asks
// on the page of instance B, "Allow always" there runs it on A and the next runs unasked; Revoke on the page of
// instance C holds on A at once (its next call asks B's page again). Each instance holds one LISTEN connection.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Browser, BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { launchChromium } from '../../packages/elements/src/testing/browser.js';
import { ConsoleClient } from '../../apps/console/src/testing/console-client.js';
import { startPostgres } from '../support/postgres/postgres-server.js';
import type { PostgresServer } from '../support/postgres/postgres-server.js';
import { signedInPage } from './signed-in-page.js';

const BIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../apps/console/dist/bin.js');

let server: PostgresServer;
let browser: Browser;
const contexts: BrowserContext[] = [];
const children: ChildProcessWithoutNullStreams[] = [];
beforeAll(async () => {
  [server, browser] = await Promise.all([startPostgres(), launchChromium()]);
}, 60_000);
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  await Promise.all(children.map(stopped));
  await server?.stop();
});

/** Ends a console process with SIGTERM (its clean stop) and resolves once it has exited. */
function stopped(child: ChildProcessWithoutNullStreams): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((done) => {
    child.once('exit', () => done());
    child.kill('SIGTERM');
  });
}

/** Starts the built console in an empty directory (its demo server) on `url`; resolves with its address. */
function startInstance(url: string): Promise<string> {
  const home = mkdtempSync(join(tmpdir(), 'airlock-three-'));
  const child = spawn(process.execPath, [BIN, '--port', '0', '--store', url], {
    cwd: home,
    env: { ...process.env, HOME: home, XDG_DATA_HOME: home },
  });
  children.push(child);
  child.once('exit', () => rmSync(home, { recursive: true, force: true }));
  return new Promise((listening, failed) => {
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const found = /listening on (\S+)/.exec(out);
      if (found?.[1] !== undefined) listening(found[1]);
    });
    child.once('exit', () => failed(new Error(`the console ended before it listened: ${out}`)));
  });
}

describe('three console instances as processes on one database', () => {
  it("answers A's question on B's page, and a revoke on C's page holds on A", async () => {
    const url = await server.createDatabase();
    const [a, b, c] = await Promise.all([startInstance(url), startInstance(url), startInstance(url)]);
    const onA = await ConsoleClient.signIn(a, { userId: 'ana' });
    const tabA = await onA.openEvents();
    try {
      await vi.waitFor(async () => expect(JSON.stringify((await onA.get('/api/tools')).body)).toContain('demo__echo'), {
        timeout: 20_000,
      });
      const [pageB, pageC] = await Promise.all([
        signedInPage(browser, b, { contexts }),
        signedInPage(browser, c, { contexts }),
      ]);
      const sheetB = (decision: string) =>
        pageB.locator(`airlock-permission-sheet button[data-decision="${decision}"]`);

      const first = await onA.startCall('demo__echo', { text: 'asked on a, allowed on b' });
      await sheetB('allow_always').click();
      expect((await tabA.waitForEnd(first)).invocation.state).toBe('success');
      const remembered = await onA.startCall('demo__echo', { text: 'remembered on a' });
      expect((await tabA.waitForEnd(remembered)).invocation.state).toBe('success');

      await pageC.getByRole('link', { name: 'Permissions' }).click();
      await pageC.locator('tr[data-decision]').getByRole('button', { name: 'Revoke' }).click();
      await pageC.locator('tr[data-decision]').waitFor({ state: 'detached' });

      const after = await onA.startCall('demo__echo', { text: 'after the revoke on c' });
      await sheetB('deny_once').click();
      expect((await tabA.waitForEnd(after)).invocation.state).toBe('cancelled');

      // One LISTEN connection per instance: three on the database.
      const db = new pg.Client({ connectionString: url });
      await db.connect();
      try {
        const { rows } = await db.query<{ n: number }>(
          "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN %'",
        );
        expect(rows[0]?.n).toBe(3);
      } finally {
        await db.end();
      }
    } finally {
      await tabA.close();
    }
  }, 90_000);
});
