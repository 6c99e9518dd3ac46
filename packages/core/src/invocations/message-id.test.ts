// Seed 000 R7: a call is kept under (user, workspace, conversation, message id, tool call id). The message id is the
// caller's (a chat's user message whose turn made the call), kept in history beside the model's call id.
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost } from '../host/create-host.js';
import type { Host } from '../host/host.js';
import { openSqliteDatabase } from '../storage/sqlite/open-sqlite-database.js';
import { SqliteStore } from '../storage/sqlite/sqlite-store.js';
import { SCOPE } from '../testing/demo-fixture.js';
import { scratchDir } from '../testing/scratch-dir.js';
import { ScriptedSurface } from '../testing/scripted-surface.js';

let host: Host | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await host?.close();
  host = undefined;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const LOOKUP = {
  name: 'lookup',
  inputSchema: { type: 'object' as const },
  run: () => Promise.resolve({ content: [{ type: 'text' as const, text: 'found' }] }),
};

function start(): Host {
  const dir = scratchDir('airlock-message-id-');
  dirs.push(dir);
  host = createHost({
    store: new SqliteStore({ database: openSqliteDatabase(`${dir}/airlock.db`).database }),
    surface: new ScriptedSurface('allow_once'),
    tools: [LOOKUP],
  });
  return host;
}

describe('the id of the message whose turn made a call', () => {
  it("is kept in a SQLite file's history with the model's call id, and found by its tenant only", async () => {
    const host = start();
    const result = await host.invoke({
      scope: SCOPE,
      caller: { kind: 'model' },
      tool: 'lookup',
      modelCallId: 'toolu_01',
      messageId: 'msg-user-3',
    });
    expect(result.outcome).toBe('success');

    const entry = await host.history.get({ scope: SCOPE, invocationId: result.invocationId });
    expect(entry?.invocation).toMatchObject({ scope: SCOPE, messageId: 'msg-user-3', modelCallId: 'toolu_01' });
    const other = { ...SCOPE, userId: 'mallory' };
    await expect(host.history.get({ scope: other, invocationId: result.invocationId })).resolves.toBeUndefined();
  });

  it('refuses one that is not a string of 1 to 256 characters, naming the option, and records nothing', async () => {
    const host = start();
    for (const messageId of ['', 'x'.repeat(257), 7]) {
      const call = host.invoke({
        scope: SCOPE,
        caller: { kind: 'model' },
        tool: 'lookup',
        messageId: messageId as string,
      });
      await expect(call).rejects.toMatchObject({
        code: 'invalid_options',
        message: expect.stringMatching(/^messageId must be a string of 1 to 256 characters/),
      });
    }
    expect(await host.history.list({ scope: SCOPE })).toEqual([]);
  });
});
