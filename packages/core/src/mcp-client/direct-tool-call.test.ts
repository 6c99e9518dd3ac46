import { afterEach, describe, expect, it } from 'vitest';
import { getEventListeners } from 'node:events';
import { Client, ProtocolError, SdkError } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import type { ToolProgress } from '../tools/tool.js';
import { OrderedClient } from './ordered-client.js';
import { StdioTransport } from '../servers/stdio-transport.js';
import { TaskExtensionClient } from '../tasks/task-extension-client.js';
import { NO_SDK_TIMEOUT_MS, sendToolCall } from './tool-call-request.js';

// A 2025-era stdio server whose one tool does what the call's `case` says: tells progress (some of it malformed),
// answers with a JSON-RPC error, never answers, exits, or shows the request it got. It remembers the ids of the
// notifications/cancelled it receives and gives them back in the `cancelled` case.
const SERVER = String.raw`
const cancelled = [];
const send = (m) => process.stdout.write(JSON.stringify(m) + '\n');
let buf = '';
process.stdin.on('data', (chunk) => {
  buf += chunk;
  let nl;
  while ((nl = buf.indexOf('\n')) >= 0) {
    const m = JSON.parse(buf.slice(0, nl));
    buf = buf.slice(nl + 1);
    if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: m.params.protocolVersion,
      capabilities: { tools: {} }, serverInfo: { name: 'direct', version: '1.0.0' } } });
    else if (m.method === 'notifications/cancelled') cancelled.push(m.params.requestId);
    else if (m.method === 'tools/call') {
      const c = m.params.arguments.case;
      const token = m.params._meta && m.params._meta.progressToken;
      if (c === 'progress') {
        send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 1, total: 3 } });
        send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 'x' } });
        send({ jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token, progress: 2, message: 'half' } });
        send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'done' }] } });
      } else if (c === 'error') send({ jsonrpc: '2.0', id: m.id, error: { code: -32001, message: 'nope', data: { why: 1 } } });
      else if (c === 'request') send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: JSON.stringify(m) }] } });
      else if (c === 'cancelled') send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: JSON.stringify(cancelled) }] } });
      else if (c === 'exit') process.exit(0);
      else if (c === 'task') send({ jsonrpc: '2.0', id: m.id, result: { resultType: 'task', task: { taskId: 't1', status: 'working' } } });
      else if (c === 'infinite') {
        process.stdout.write('{"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":' + JSON.stringify(token) + ',"progress":1e999}}\n');
        send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'done' }] } });
      } else if (c === 'huge') send({ jsonrpc: '2.0', id: m.id, result: { content: [{ type: 'text', text: 'x'.repeat(2000000) }] } });
    } else if (m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, result: {} });
  }
});
`;

const definition = { name: 'act', inputSchema: { type: 'object' as const } };
const clients: Client[] = [];

async function connect<C extends Client>(client: C): Promise<C> {
  await client.connect(
    new StdioTransport({
      command: process.execPath,
      args: ['-e', SERVER],
      env: getDefaultEnvironment(),
      maxBufferSize: 1_000_000,
    }),
  );
  clients.push(client);
  return client;
}

afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

function viaHost(client: Client, c: string, options: { signal?: AbortSignal; progress?: ToolProgress[] } = {}) {
  return sendToolCall(
    client,
    'act',
    { case: c },
    {
      signal: options.signal ?? new AbortController().signal,
      onProgress: (p) => options.progress?.push(p),
      definition,
    },
  );
}

function viaSdk(client: Client, c: string, signal?: AbortSignal) {
  return client.request(
    { method: 'tools/call', params: { name: 'act', arguments: { case: c } } },
    { timeout: NO_SDK_TIMEOUT_MS, ...(signal === undefined ? {} : { signal }) },
  );
}

const textOf = (result: { content: unknown }) => (result.content as { text: string }[])[0]!.text;

describe('a tools/call sent directly on the stdio transport', () => {
  it('sends what the SDK sends but its id: a negative integer, also its progress token', async () => {
    const [host, sdk] = await Promise.all([
      connect(new OrderedClient({ name: 'host', version: '0' })),
      connect(new Client({ name: 'sdk', version: '0' })),
    ]);
    const ours = textOf(await viaHost(host, 'request'));
    const theirs = textOf(
      await sdk.request(
        { method: 'tools/call', params: { name: 'act', arguments: { case: 'request' } } },
        { timeout: NO_SDK_TIMEOUT_MS, onprogress: () => undefined },
      ),
    );
    const id = (JSON.parse(ours) as { id: number }).id;
    expect(Number.isSafeInteger(id) && id < 0).toBe(true);
    const sdkId = (JSON.parse(theirs) as { id: number }).id;
    // The same text, key order included, once the ids are set aside.
    expect(ours.replaceAll(String(id), 'ID')).toBe(theirs.replaceAll(String(sdkId), 'ID'));
  });

  it('tells each well-formed progress notification in order, and the result after them', async () => {
    const host = await connect(new OrderedClient({ name: 'host', version: '0' }));
    const reported = new Promise<Error>((resolve) => (host.onerror = resolve));
    const progress: ToolProgress[] = [];
    const result = await viaHost(host, 'progress', { progress });
    expect(textOf(result)).toBe('done');
    expect(progress).toEqual([
      { progress: 1, total: 3 },
      { progress: 2, message: 'half' },
    ]);
    // The malformed one went to the client, which refuses it as it always has, and the call went on.
    expect((await reported).message).toMatch(/notification handler[\s\S]*"expected": "number"/);
  });

  it('reports a progress listener that throws, and the call goes on to its result', async () => {
    const host = await connect(new OrderedClient({ name: 'host', version: '0' }));
    const reported = new Promise<Error>((resolve) => (host.onerror = resolve));
    const result = await sendToolCall(
      host,
      'act',
      { case: 'progress' },
      {
        signal: new AbortController().signal,
        onProgress: () => {
          throw new Error('listener broke');
        },
        definition,
      },
    );
    expect(textOf(result)).toBe('done');
    expect((await reported).message).toContain('listener broke');
  });

  it("rejects a JSON-RPC error as the SDK's ProtocolError, with the same code, message and data", async () => {
    const [host, sdk] = await Promise.all([
      connect(new OrderedClient({ name: 'host', version: '0' })),
      connect(new Client({ name: 'sdk', version: '0' })),
    ]);
    const ours = await viaHost(host, 'error').catch((e: unknown) => e);
    const theirs = await viaSdk(sdk, 'error').catch((e: unknown) => e);
    expect(ours).toBeInstanceOf(ProtocolError);
    expect(ours).toMatchObject({ code: -32001, message: (theirs as Error).message, data: { why: 1 } });
    expect(theirs).toMatchObject({ code: -32001, data: { why: 1 } });
  });

  it('on abort rejects as the SDK does and tells the server which request it cancelled', async () => {
    const [host, sdk] = await Promise.all([
      connect(new OrderedClient({ name: 'host', version: '0' })),
      connect(new Client({ name: 'sdk', version: '0' })),
    ]);
    const ours = new AbortController();
    const theirs = new AbortController();
    const hostCall = viaHost(host, 'hang', { signal: ours.signal }).catch((e: unknown) => e);
    const sdkCall = viaSdk(sdk, 'hang', theirs.signal).catch((e: unknown) => e);
    ours.abort('timeout');
    theirs.abort('timeout');
    const [a, b] = (await Promise.all([hostCall, sdkCall])) as Error[];
    expect(a).toBeInstanceOf(SdkError);
    expect(a!.message).toBe(b!.message);
    // The next call on the same connection finds the cancel already received.
    const seen = JSON.parse(textOf(await viaHost(host, 'cancelled'))) as unknown[];
    expect(seen).toEqual([expect.any(Number)]);
    expect((seen[0] as number) < 0).toBe(true);
  });

  it('rejects a call in flight with "Connection closed" when the server exits, as the SDK does', async () => {
    const [host, sdk] = await Promise.all([
      connect(new OrderedClient({ name: 'host', version: '0' })),
      connect(new Client({ name: 'sdk', version: '0' })),
    ]);
    const [ours, theirs] = (await Promise.all([
      viaHost(host, 'exit').catch((e: unknown) => e),
      viaSdk(sdk, 'exit').catch((e: unknown) => e),
    ])) as Error[];
    expect(ours).toBeInstanceOf(SdkError);
    expect(ours!.message).toBe(theirs!.message);
    expect(ours!.message).toMatch(/Connection closed/);
  });

  it("turns a task answer the call did not ask for into the same error as through the SDK (the host's client)", async () => {
    const host = await connect(new TaskExtensionClient({ name: 'host', version: '0' }));
    const viaRequest = await host
      .request({ method: 'tools/call', params: { name: 'act', arguments: { case: 'task' } } }, host.toolResultSchema, {
        timeout: NO_SDK_TIMEOUT_MS,
      })
      .catch((e: unknown) => e);
    const direct = await viaHost(host, 'task').catch((e: unknown) => e);
    expect(direct).toBeInstanceOf(ProtocolError);
    expect((direct as Error).message).toBe((viaRequest as Error).message);
    expect((direct as Error).message).toContain('answered with a task');
  });

  it('leaves no abort listener on the signal, whatever ended the call', async () => {
    const host = await connect(new OrderedClient({ name: 'host', version: '0' }));
    for (const c of ['request', 'error', 'task', 'huge']) {
      const controller = new AbortController();
      await viaHost(host, c, { signal: controller.signal }).catch(() => undefined);
      expect(getEventListeners(controller.signal, 'abort'), c).toHaveLength(0);
    }
    const aborted = new AbortController();
    const hanging = viaHost(host, 'hang', { signal: aborted.signal }).catch(() => undefined);
    aborted.abort('stop');
    await hanging;
    expect(getEventListeners(aborted.signal, 'abort')).toHaveLength(0);
    const closing = new AbortController();
    const lost = viaHost(host, 'exit', { signal: closing.signal }).catch(() => undefined);
    await lost;
    expect(getEventListeners(closing.signal, 'abort')).toHaveLength(0);
  });

  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const host = await connect(new OrderedClient({ name: 'host', version: '0' }));
    const controller = new AbortController();
    controller.abort('before');
    const error = await viaHost(host, 'request', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect((error as Error).message).toContain('before');
    const seen = JSON.parse(textOf(await viaHost(host, 'cancelled'))) as unknown[];
    expect(seen).toEqual([]);
  });

  it('leaves a progress notification with a number JSON cannot hold (1e999) to the client, as the SDK refuses it', async () => {
    const host = await connect(new OrderedClient({ name: 'host', version: '0' }));
    const reported = new Promise<Error>((resolve) => (host.onerror = resolve));
    const progress: ToolProgress[] = [];
    expect(textOf(await viaHost(host, 'infinite', { progress }))).toBe('done');
    expect(progress).toEqual([]);
    expect((await reported).message).toMatch(/notification handler/);
  });

  it("refuses an answer over the transport's cap for the call it answers", async () => {
    const host = await connect(new OrderedClient({ name: 'host', version: '0' }));
    const error = await viaHost(host, 'huge').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).data).toMatchObject({ cap: 1_000_000, matched: 'by_id' });
    // The connection goes on: the next call is answered.
    expect(textOf(await viaHost(host, 'progress'))).toBe('done');
  });

  it('keeps many calls in flight apart, each getting its own answer', async () => {
    const host = await connect(new OrderedClient({ name: 'host', version: '0' }));
    const results = await Promise.all(Array.from({ length: 50 }, () => viaHost(host, 'request')));
    const ids = results.map((r) => (JSON.parse(textOf(r)) as { id: number }).id);
    expect(new Set(ids).size).toBe(50);
  });
});
