import { Client } from '@modelcontextprotocol/client';
import type { JSONRPCMessage } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../../../test/support/cli/run-cli.js';
import { callLog, CliGateways, loggedDemo } from '../../../test/support/gateway/cli-gateways.js';

// A 2025-11-25 session's plain tools/call is answered by the stdio fast path (not the SDK server's dispatch): the
// client must not see the difference in progress, cancellation, errors or ids.

const bench = new CliGateways();
afterEach(() => bench.end());

/** A 2025-era v2 client of a gateway over stdio in front of the demo server, whose every tool a rule allows. */
async function connect() {
  const w = bench.workspace('airlock-gateway-fast-', (dir) => ({
    mcpServers: { demo: loggedDemo(dir) },
    permissions: { rules: [{ effect: 'allow', server: 'demo' }] },
  }));
  const client = bench.client(new Client({ name: 'fast', version: '1' }));
  const args = [CLI_BIN, 'gateway', '--config', w.config, '--store', w.store, '--user', 'ada'];
  const transport = new StdioClientTransport({ command: process.execPath, args });
  await client.connect(transport);
  // Every message as the gateway wrote it, in wire order, before the client dispatches it: the v2 client handles a
  // notification a microtask after a response read in the same chunk, so its own progress callback can miss a last
  // step the gateway sent in order (a chunk that holds both is likelier on a loaded machine).
  const wire: JSONRPCMessage[] = [];
  const dispatch = transport.onmessage;
  transport.onmessage = (message: JSONRPCMessage) => {
    wire.push(message);
    dispatch?.(message);
  };
  /** What the demo server saw: each call, and each call the client cancelled, in order. */
  const seen = (): string[] => callLog(w.dir).map(({ event, tool }) => `${event} ${tool}`);
  return { client, seen, wire };
}

function textOf(result: unknown): string {
  const { content } = result as { content: { type: string; text?: string }[] };
  return content.map((block) => block.text ?? '').join('\n');
}

describe('airlock gateway over stdio, a 2025-11-25 plain call', () => {
  it("relays the server's progress to the client's progress token", async () => {
    const { client, wire } = await connect();
    expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
    const progress: { progress: number; total?: number; message?: string }[] = [];
    const result = await client.callTool(
      { name: 'demo__slow_task', arguments: { steps: 3, stepMs: 5 } },
      { onprogress: (value) => progress.push(value) },
    );
    expect(result.isError).toBeUndefined();
    expect(progress.map((value) => value.progress)).toEqual([1, 2, 3].slice(0, progress.length));
    // Every step reached the client, each under the call's progress token, all before the call's answer.
    const answer = wire.findIndex((message) => 'result' in message && textOf(message.result).includes('done after 3'));
    const steps = wire.flatMap((message, at) =>
      'method' in message && message.method === 'notifications/progress'
        ? [
            {
              at,
              params: message.params as { progressToken: unknown; progress: number; total?: number; message?: string },
            },
          ]
        : [],
    );
    expect(answer).toBeGreaterThan(-1);
    expect(steps.map(({ params }) => params.progress)).toEqual([1, 2, 3]);
    expect(new Set(steps.map(({ params }) => params.progressToken)).size).toBe(1);
    expect(steps.every(({ at }) => at < answer)).toBe(true);
    expect(steps[2]?.params).toMatchObject({ total: 3, message: 'step 3 of 3' });
  });

  it('passes a cancellation on to the server, and the session serves the next call', async () => {
    const { client, seen } = await connect();
    const abort = new AbortController();
    const hanging = client.callTool({ name: 'demo__hang', arguments: {} }, { signal: abort.signal });
    await expect.poll(seen).toEqual(['call hang']);
    abort.abort(new Error('the person gave up'));
    await expect(hanging).rejects.toThrow(/gave up/);
    await expect.poll(seen).toEqual(['call hang', 'cancelled hang']);
    const echo = await client.callTool({ name: 'demo__echo', arguments: { text: 'still here' } });
    expect(textOf(echo)).toContain('still here');
  });

  it('answers concurrent calls each under its own id, and arguments the schema refuses with an isError naming it', async () => {
    const { client } = await connect();
    const texts = ['one', 'two', 'three'];
    const results = await Promise.all(
      texts.map((text) => client.callTool({ name: 'demo__echo', arguments: { text } })),
    );
    expect(results.map(textOf).map((text, i) => text.includes(texts[i]!))).toEqual([true, true, true]);
    const refused = await client.callTool({ name: 'demo__echo', arguments: { text: 42 } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/text/);
  });
});
