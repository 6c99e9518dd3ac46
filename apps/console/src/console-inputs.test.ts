import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scratchDir } from '@airlock/core/testing';
import { loadConsoleConfig, startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { demoServers } from './console-config.js';
import { ConsoleClient } from './testing/console-client.js';

// A VS Code-style config whose servers take `${input:ID}`, in the console: a server without its input's value fails
// saying where to enter it; a value entered in the server panel is kept sealed (never shown back) and the server
// starts with it. A server per user takes each user's own value; a shared one the console's, set by an administrator.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The config file: the demo server twice, shared and per user, each given an input through its environment. */
function writeConfig(): string {
  const demo = demoServers()[0]!;
  if (demo.transport !== 'stdio') throw new Error('the demo server runs over stdio');
  const path = join(scratchDir('airlock-console-inputs-'), 'mcp.json');
  writeFileSync(
    path,
    JSON.stringify({
      inputs: [
        { id: 'team-key', type: 'promptString', description: 'The team key', password: true },
        { id: 'own-key', type: 'promptString', description: 'Your own key', password: true },
        { id: 'region', type: 'pickString', options: ['eu', 'us'] },
      ],
      servers: {
        team: { command: demo.command, args: demo.args, env: { TEAM_KEY: '${input:team-key}' }, isolation: 'shared' },
        team2: {
          command: demo.command,
          args: demo.args,
          env: { TEAM_KEY: '${input:team-key}' },
          isolation: 'workspace',
        },
        own: {
          command: demo.command,
          args: demo.args,
          env: { OWN_KEY: '${input:own-key}', REGION: '${input:region}' },
          isolation: 'user',
        },
      },
      console: {
        auth: 'token',
        users: [
          { id: 'ana', tokenSha256: sha256('ana-token'), admin: true, workspaces: ['*'] },
          { id: 'bob', tokenSha256: sha256('bob-token') },
        ],
      },
    }),
  );
  return path;
}

describe("the console's inputs", () => {
  let running: RunningConsole;
  let ana: ConsoleClient;
  let bob: ConsoleClient;
  const state = async (client: ConsoleClient, id: string) =>
    ((await client.get('/api/servers')).body as { id: string; state: string; error?: string }[]).find(
      (s) => s.id === id,
    );

  beforeAll(async () => {
    running = await startConsole({ ...loadConsoleConfig({ config: writeConfig(), store: ':memory:' }, {}), port: 0 });
    ana = await ConsoleClient.signIn(running.url, { token: 'ana-token' });
    bob = await ConsoleClient.signIn(running.url, { token: 'bob-token' });
  });
  afterAll(async () => {
    await running?.close();
  });

  it('fails a shared server whose input has no value, saying where to enter it', async () => {
    expect(await state(ana, 'team')).toMatchObject({
      state: 'failed',
      error: expect.stringContaining(`needs input "team-key" (The team key)`) as unknown,
    });
    expect((await state(ana, 'team'))?.error).toContain("enter it in the console: the server's panel");
    expect((await ana.get('/api/servers/team/inputs')).body).toEqual([
      { id: 'team-key', type: 'promptString', description: 'The team key', password: true, set: false, shared: true },
    ]);
  });

  it("lets only an administrator set a shared server's input, then starts the server with it", async () => {
    const refused = await bob.request('PUT', '/api/servers/team/inputs/team-key', { value: 'secret-1' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'admin_only' } } });
    const set = await ana.request('PUT', '/api/servers/team/inputs/team-key', { value: 'secret-1' });
    expect(set.status).toBe(200);
    expect(set.body).toEqual([expect.objectContaining({ id: 'team-key', set: true, shared: true })]);
    expect(JSON.stringify(set.body)).not.toContain('secret-1');
    expect(await state(bob, 'team')).toMatchObject({ state: 'ready' });
  });

  it("keeps each user's own value for a server per user, checks a pick against its options", async () => {
    const own = await bob.get('/api/servers/own/inputs');
    expect(own.body).toEqual([
      expect.objectContaining({ id: 'own-key', set: false, shared: false }),
      expect.objectContaining({ id: 'region', type: 'pickString', options: ['eu', 'us'], set: false }),
    ]);
    const wrong = await bob.request('PUT', '/api/servers/own/inputs/region', { value: 'mars' });
    expect(wrong).toMatchObject({ status: 400, body: { error: { message: 'input "region" takes one of: eu, us' } } });
    expect((await bob.request('PUT', '/api/servers/own/inputs/region', { value: 'eu' })).status).toBe(200);
    expect((await bob.request('PUT', '/api/servers/own/inputs/own-key', { value: 'bob-key' })).status).toBe(200);
    expect(await state(bob, 'own')).toMatchObject({ state: 'ready' });
    // Ana's connection takes her own values, which she has not given.
    expect((await ana.get('/api/servers/own/inputs')).body).toEqual([
      expect.objectContaining({ id: 'own-key', set: false }),
      expect.objectContaining({ id: 'region', set: false }),
    ]);
  });

  it("keeps a server per workspace's value apart in each workspace", async () => {
    expect((await ana.request('PUT', '/api/servers/team2/inputs/team-key', { value: 'key-default' })).status).toBe(200);
    const other = await ConsoleClient.signIn(running.url, { token: 'ana-token', workspaceId: 'other' });
    expect((await other.get('/api/servers/team2/inputs')).body).toEqual([
      expect.objectContaining({ id: 'team-key', set: false, shared: true }),
    ]);
    expect((await ana.get('/api/servers/team2/inputs')).body).toEqual([
      expect.objectContaining({ id: 'team-key', set: true, shared: true }),
    ]);
    const refused = await bob.request('PUT', '/api/servers/team2/inputs/team-key', { value: 'x' });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'admin_only' } } });
  });

  it('clears a value, and answers 404 for an input the server does not declare', async () => {
    const cleared = await bob.delete('/api/servers/own/inputs/own-key');
    expect(cleared.body).toEqual([
      expect.objectContaining({ id: 'own-key', set: false }),
      expect.objectContaining({ id: 'region', set: true }),
    ]);
    const unknown = await bob.request('PUT', '/api/servers/own/inputs/team-key', { value: 'x' });
    expect(unknown).toMatchObject({
      status: 404,
      body: { error: { message: 'server "own" declares no input "team-key"' } },
    });
  });
});
