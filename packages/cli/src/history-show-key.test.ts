import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { createHost, MemoryStore } from '@airlock/core';
import type { Host } from '@airlock/core';
import { ScriptedSurface } from '@airlock/core/testing';
import { createStyle } from './cli-style.js';
import { history } from './list-commands.js';

let host: Host | undefined;
afterEach(async () => {
  await host?.close();
  host = undefined;
});

const SCOPE = { userId: 'ana', workspaceId: 'default', conversationId: 'chat-1' };

async function shown(options: { messageId?: string; modelCallId?: string }): Promise<string> {
  host = createHost({
    store: new MemoryStore(),
    surface: new ScriptedSurface('allow_once'),
    tools: [
      {
        name: 'lookup',
        inputSchema: { type: 'object' },
        run: () => Promise.resolve({ content: [{ type: 'text', text: 'found' }] }),
      },
    ],
  });
  const result = await host.invoke({ scope: SCOPE, caller: { kind: 'model' }, tool: 'lookup', ...options });
  const stdout = new PassThrough();
  let text = '';
  stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const io = { stdout, stderr: new PassThrough(), style: createStyle(false) };
  await history(host, SCOPE, ['show', result.invocationId], { full: false, json: false }, io);
  return text;
}

describe('airlock history show', () => {
  it("shows a call's key: its conversation, the message whose turn made it and the model's id for it", async () => {
    const text = await shown({ messageId: 'msg-9', modelCallId: 'toolu_01' });
    expect(text.split('\n')[1]).toBe('  conversation chat-1 · message msg-9 · tool call toolu_01');
  });

  it('shows no key line for a call made without either id', async () => {
    const text = await shown({});
    expect(text).not.toContain('tool call');
    expect(text.split('\n')[1]).toMatch(/^ {2}args/);
  });
});
