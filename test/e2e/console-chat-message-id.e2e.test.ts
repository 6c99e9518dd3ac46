// Seed 000 R7: a call the chat makes is kept under (user, workspace, conversation, message, tool call). The console's
// chat passes the id of the user's line whose turn made the call, beside the model's id for it. A fake
// OpenAI-compatible model (the one edge the console does not own) calls the demo server's echo; a host rule allows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryConsoleConfig } from '../../apps/console/src/testing/memory-console-config.js';
import { ConsoleClient } from '../../apps/console/src/testing/console-client.js';
import { startConsole } from '@airlock/console';
import type { RunningConsole } from '@airlock/console';
import { startMockOpenAI } from './mock-openai.js';

let running: RunningConsole;
let mock: Awaited<ReturnType<typeof startMockOpenAI>>;

beforeAll(async () => {
  mock = await startMockOpenAI([
    { toolCall: { name: 'demo__echo', arguments: { text: 'first turn' } } },
    { text: () => 'Echoed.' },
    { toolCall: { name: 'demo__echo', arguments: { text: 'second turn' } } },
    { text: () => 'Echoed again.' },
  ]);
  running = await startConsole(
    memoryConsoleConfig('chat message id test', {
      model: { baseURL: mock.baseURL, model: 'mock-model' },
      rules: [{ effect: 'allow', layer: 'host', server: 'demo', tool: 'echo', source: 'chat message id test' }],
    }),
  );
  await running.host.servers.settled();
}, 60_000);

afterAll(async () => {
  await running?.close();
  await mock?.close();
});

interface Line {
  readonly id: number;
  readonly role: string;
  readonly invocationId?: string;
}

/** Sends a message and waits for its turn to end; the conversation's lines after it. */
async function turn(client: ConsoleClient, message: string): Promise<Line[]> {
  expect((await client.post('/api/chat', { message })).status).toBe(202);
  await expect.poll(async () => ((await client.get('/api/chat')).body as { busy: boolean }).busy).toBe(false);
  return ((await client.get('/api/chat')).body as { lines: Line[] }).lines;
}

describe("the chat's calls in history", () => {
  it('carry the id of the user message whose turn made them, and the model’s id for the call', async () => {
    const client = await ConsoleClient.signIn(running.url, { userId: 'ana' });
    await turn(client, 'Echo once');
    const lines = await turn(client, 'Echo twice');
    const users = lines.filter((line) => line.role === 'user');
    const calls = lines.filter((line) => line.role === 'call');
    expect(users).toHaveLength(2);
    expect(calls).toHaveLength(2);

    const scope = { userId: 'ana', workspaceId: 'default', conversationId: 'main' };
    const kept = await Promise.all(
      calls.map((call) => running.host.history.get({ scope, invocationId: call.invocationId! })),
    );
    expect(kept.map((entry) => [entry?.invocation.messageId, entry?.invocation.modelCallId])).toEqual([
      [String(users[0]!.id), 'call_1'],
      [String(users[1]!.id), 'call_3'],
    ]);
    // Another user finds none of it.
    const other = { ...scope, userId: 'mallory' };
    await expect(running.host.history.get({ scope: other, invocationId: calls[0]!.invocationId! })).resolves.toBe(
      undefined,
    );
  });
});
