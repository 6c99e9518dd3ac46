import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import type { FastCall } from './fast-tool-calls.js';
import { FastToolCalls } from './fast-tool-calls.js';

/** A fast path whose calls run `call`, and the messages it wrote, awaited through `written(n)`. */
function fastPath(call: (call: FastCall) => Promise<CallToolResult>) {
  const sent: JSONRPCMessage[] = [];
  const waiting: (() => void)[] = [];
  const fast = new FastToolCalls((message) => {
    sent.push(message);
    for (const wake of waiting.splice(0)) wake();
    return Promise.resolve();
  });
  const written = async (n: number) => {
    while (sent.length < n) await new Promise<void>((wake) => waiting.push(wake));
    return sent;
  };
  const disable = fast.enable({ list: () => ({ tools: [] }), call });
  return { fast, sent, written, disable };
}

const request = (id: number, params: Record<string, unknown>): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params,
});

describe('FastToolCalls: the 2025 stdio hot path', () => {
  it('answers a plain call under its id, with its progress before the result', async () => {
    const { fast, written } = fastPath(({ name, args, progressToken, notify }) => {
      notify({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken, progress: 1 } });
      return Promise.resolve({ content: [{ type: 'text' as const, text: `${name} ${JSON.stringify(args)}` }] });
    });
    expect(
      fast.inbound(request(7, { name: 'demo__echo', arguments: { text: 'hi' }, _meta: { progressToken: 'p' } })),
    ).toBe(true);
    expect(await written(2)).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 'p', progress: 1 } },
      { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'demo__echo {"text":"hi"}' }] } },
    ]);
  });

  it("words a thrown error as the SDK does: the error's code, message and data", async () => {
    const { fast, written } = fastPath(() =>
      Promise.reject(new ProtocolError(ProtocolErrorCode.InvalidParams, 'Unknown tool: nope', { tool: 'nope' })),
    );
    fast.inbound(request(1, { name: 'nope' }));
    expect((await written(1))[0]).toMatchObject({
      id: 1,
      error: { code: -32602, message: expect.stringContaining('Unknown tool: nope') as string, data: { tool: 'nope' } },
    });
  });

  it('aborts a cancelled call and never answers it', async () => {
    let aborted: unknown;
    const { fast, sent } = fastPath(
      ({ signal }) =>
        new Promise((resolve) =>
          signal.addEventListener('abort', () => {
            aborted = signal.reason;
            resolve({ content: [] });
          }),
        ),
    );
    fast.inbound(request(3, { name: 'demo__hang' }));
    const cancelled = { requestId: 3, reason: 'gave up' };
    expect(fast.inbound({ jsonrpc: '2.0', method: 'notifications/cancelled', params: cancelled })).toBe(true);
    await Promise.resolve();
    expect(aborted).toBe('gave up');
    expect(sent).toEqual([]);
  });

  it('leaves to the SDK a task, odd params, other methods, and everything before it is enabled', () => {
    const { fast, disable } = fastPath(() => Promise.resolve({ content: [] }));
    expect(fast.inbound(request(1, { name: 'demo__slow', task: { ttl: 1000 } }))).toBe(false);
    expect(fast.inbound(request(2, { name: 42 }))).toBe(false);
    expect(fast.inbound(request(3, { name: 'demo__echo', arguments: ['a'] }))).toBe(false);
    expect(fast.inbound({ jsonrpc: '2.0', id: 4, method: 'resources/list' })).toBe(false);
    disable();
    expect(fast.inbound(request(5, { name: 'demo__echo' }))).toBe(false);
  });
});
