import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConsoleLogger, startConsole } from '@airlock/console';
import type { ConsoleConfig, RunningConsole } from '@airlock/console';
import { ConsoleClient, consoleRequest } from './testing/console-client.js';
import { memoryConsoleConfig } from './testing/memory-console-config.js';

// Workspaces are boundaries: with token sign-in, a user enters only the workspaces their entry in console.users
// lists (default: "default"); signing in to or switching to any other is 404, as for one that does not exist.
// Local sign-in (one person on their own machine) stays open, and says so in the log at start.

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function config(auth: 'local' | 'token'): ConsoleConfig {
  return memoryConsoleConfig('workspace membership test', {
    servers: [],
    auth,
    users:
      auth === 'local'
        ? []
        : [
            { id: 'ana', tokenSha256: sha256('ana-token'), workspaces: ['team-a', 'shared'] },
            { id: 'bob', tokenSha256: sha256('bob-token') },
            { id: 'cy', tokenSha256: sha256('cy-token'), workspaces: ['*'] },
          ],
  });
}

describe('workspace membership with token sign-in', () => {
  let running: RunningConsole;
  beforeAll(async () => {
    running = await startConsole(config('token'));
  });
  afterAll(async () => {
    await running.close();
  });

  const signIn = (token: string, workspaceId?: string) =>
    consoleRequest(running.url, 'POST', '/api/session', {
      body: { token, ...(workspaceId === undefined ? {} : { workspaceId }) },
    });

  it('signs a user in to the workspaces their entry lists, and answers 404 for any other', async () => {
    expect((await signIn('ana-token', 'team-a')).status).toBe(200);
    expect((await signIn('ana-token', 'shared')).status).toBe(200);
    const outside = await signIn('ana-token', 'team-b');
    expect(outside).toMatchObject({ status: 404, body: { error: { code: 'workspace_not_found' } } });
    expect(outside.headers.getSetCookie()).toEqual([]);
    // Without a "workspaces" list a user is a member of "default" only; with "*" of any.
    expect((await signIn('bob-token')).status).toBe(200);
    expect((await signIn('bob-token', 'team-a')).status).toBe(404);
    expect((await signIn('cy-token', 'team-b')).status).toBe(200);
  });

  it('refuses a switch to a workspace the user is not in with 404, and the session stays where it was', async () => {
    const ana = await ConsoleClient.signIn(running.url, { token: 'ana-token', workspaceId: 'team-a' });
    const refused = await ana.post('/api/session/workspace', { workspaceId: 'team-b' });
    expect(refused).toMatchObject({ status: 404, body: { error: { code: 'workspace_not_found' } } });
    expect((await ana.get('/api/session')).body).toMatchObject({ userId: 'ana', workspaceId: 'team-a' });
    const moved = await ana.post('/api/session/workspace', { workspaceId: 'shared' });
    expect(moved.status).toBe(200);
    expect((await ana.get('/api/session')).body).toMatchObject({ workspaceId: 'shared' });
  });
});

describe('workspaces with local sign-in', () => {
  it('stays open to any workspace, and says so at start', async () => {
    const written: string[] = [];
    const logger = createConsoleLogger({ level: 'info', destination: { write: (line: string) => written.push(line) } });
    const running = await startConsole(config('local'), { logger });
    try {
      const ana = await ConsoleClient.signIn(running.url, { userId: 'ana', workspaceId: 'team-a' });
      expect((await ana.post('/api/session/workspace', { workspaceId: 'team-b' })).status).toBe(200);
    } finally {
      await running.close();
    }
    const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines).toContainEqual(
      expect.objectContaining({ auth: 'local', msg: expect.stringMatching(/may enter any workspace/) }),
    );
  });
});
