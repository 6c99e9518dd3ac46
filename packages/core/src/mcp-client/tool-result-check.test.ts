import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { OrderedClient } from './ordered-client.js';
import { StdioTransport } from '../servers/stdio-transport.js';
import { isPlainToolResult } from './tool-result-check.js';
import { NO_SDK_TIMEOUT_MS, sendToolCall } from './tool-call-request.js';

const PNG = Buffer.from('a tiny picture').toString('base64');
const ANNOTATED = { audience: ['user', 'assistant'], priority: 0.5 };

/** Results a server may send, malformed ones first; each is compared with what the SDK's own check makes of it. */
const CASES: Readonly<Record<string, unknown>> = {
  content_not_array: { content: 'hello' },
  content_null: { content: null },
  block_null: { content: [null] },
  block_of_unknown_type: { content: [{ type: 'video', url: 'https://example.com/v' }] },
  text_without_text: { content: [{ type: 'text' }] },
  text_not_a_string: { content: [{ type: 'text', text: 42 }] },
  image_with_bad_base64: { content: [{ type: 'image', data: 'not base64 at all!', mimeType: 'image/png' }] },
  audio_with_bad_base64: { content: [{ type: 'audio', data: '%%%', mimeType: 'audio/wav' }] },
  image_without_mime_type: { content: [{ type: 'image', data: PNG }] },
  structured_content_array: { content: [], structuredContent: [1, 2, 3] },
  structured_content_string: { content: [], structuredContent: 'done' },
  structured_content_null: { content: [], structuredContent: null },
  is_error_not_boolean: { content: [], isError: 'yes' },
  resource_link_without_name: { content: [{ type: 'resource_link', uri: 'file:///a.txt' }] },
  resource_link_without_uri: { content: [{ type: 'resource_link', name: 'a' }] },
  resource_link_with_text_size: { content: [{ type: 'resource_link', uri: 'file:///a', name: 'a', size: 'big' }] },
  resource_link_with_bad_icon: {
    content: [{ type: 'resource_link', uri: 'file:///a', name: 'a', icons: [{ src: 1 }] }],
  },
  embedded_without_uri: { content: [{ type: 'resource', resource: { text: 'x' } }] },
  embedded_with_bad_blob: { content: [{ type: 'resource', resource: { uri: 'file:///b', blob: '%%%' } }] },
  embedded_without_text_or_blob: { content: [{ type: 'resource', resource: { uri: 'file:///b' } }] },
  audience_unknown: { content: [{ type: 'text', text: 'x', annotations: { audience: ['robot'] } }] },
  priority_above_one: { content: [{ type: 'text', text: 'x', annotations: { priority: 2 } }] },
  last_modified_not_a_date: { content: [{ type: 'text', text: 'x', annotations: { lastModified: 'yesterday' } }] },
  block_meta_array: { content: [{ type: 'text', text: 'x', _meta: [1] }] },
  result_meta_bad_progress_token: { content: [], _meta: { progressToken: { a: 1 } } },
  result_meta_task_without_id: { content: [], _meta: { 'io.modelcontextprotocol/related-task': {} } },
  task_result_without_content: { task: { taskId: 't1', status: 'working' } },
  // Results the SDK takes: each must come back as the SDK hands it back, rewritten where it rewrites.
  plain_text: { content: [{ type: 'text', text: 'hello' }] },
  empty: { content: [] },
  text_annotated: { content: [{ type: 'text', text: 'x', annotations: ANNOTATED, _meta: { k: 1 } }] },
  text_with_unknown_key: { content: [{ type: 'text', text: 'x', colour: 'red' }] },
  text_with_last_modified: {
    content: [{ type: 'text', text: 'x', annotations: { lastModified: '2026-01-02T03:04:05Z' } }],
  },
  image: { content: [{ type: 'image', data: PNG, mimeType: 'image/png', annotations: ANNOTATED }] },
  audio: { content: [{ type: 'audio', data: PNG, mimeType: 'audio/wav' }] },
  embedded_text: { content: [{ type: 'resource', resource: { uri: 'file:///t', mimeType: 'text/plain', text: 't' } }] },
  embedded_blob: { content: [{ type: 'resource', resource: { uri: 'file:///b', blob: PNG } }] },
  embedded_text_and_blob: { content: [{ type: 'resource', resource: { uri: 'file:///b', text: 't', blob: PNG } }] },
  resource_link: {
    content: [
      {
        type: 'resource_link',
        uri: 'file:///a',
        name: 'a',
        title: 'A',
        description: 'd',
        mimeType: 'text/plain',
        size: 10,
        _meta: { x: 1 },
      },
    ],
  },
  resource_link_with_icon: {
    content: [{ type: 'resource_link', uri: 'file:///a', name: 'a', icons: [{ src: 'https://x/i.png' }] }],
  },
  structured: { content: [{ type: 'text', text: '{"a":1}' }], structuredContent: { a: 1, b: [true, null] } },
  structured_with_proto_key: { content: [], structuredContent: JSON.parse('{"__proto__": {"polluted": true}}') },
  tool_error: { content: [{ type: 'text', text: 'no such file' }], isError: true },
  without_content: { structuredContent: { a: 1 } },
  result_meta: { content: [], _meta: { progressToken: 'p', other: { deep: [1] } } },
  result_meta_numeric_token: { content: [], _meta: { progressToken: 7 } },
  extra_top_level_key: { content: [], note: 'kept' },
  listing_without_content: { tools: [] },
};

/** A 2025-11-25 stdio server whose one tool answers `{ case }` with that case's result, as it is written above. */
const SERVER = `
const cases = ${JSON.stringify(CASES)};
const send = (m) => process.stdout.write(JSON.stringify(m) + '\\n');
let buffer = '';
process.stdin.on('data', (chunk) => {
  buffer += chunk;
  let at;
  while ((at = buffer.indexOf('\\n')) !== -1) {
    const m = JSON.parse(buffer.slice(0, at));
    buffer = buffer.slice(at + 1);
    if (m.method === 'initialize') send({ jsonrpc: '2.0', id: m.id, result: { protocolVersion: '2025-11-25',
      capabilities: { tools: {} }, serverInfo: { name: 'shapes', version: '1.0.0' } } });
    else if (m.method === 'tools/list') send({ jsonrpc: '2.0', id: m.id, result: { tools: [
      { name: 'reply', inputSchema: { type: 'object' } }] } });
    else if (m.method === 'tools/call') send({ jsonrpc: '2.0', id: m.id, result: cases[m.params.arguments.case] });
    else if (m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, result: {} });
  }
});
`;

/** What a call ended with: the result, or the message it was refused with. */
type Settled = { readonly result: unknown } | { readonly refused: string };

function settle(call: Promise<unknown>): Promise<Settled> {
  return call.then(
    (result) => ({ result }),
    (error: unknown) => ({ refused: error instanceof Error ? error.message : String(error) }),
  );
}

async function connect(client: Client): Promise<Client> {
  await client.connect(
    new StdioTransport({
      command: process.execPath,
      args: ['-e', SERVER],
      env: getDefaultEnvironment(),
      maxBufferSize: 8_000_000,
    }),
  );
  return client;
}

const definition = { name: 'reply', inputSchema: { type: 'object' as const } };
let host: Client;
let sdk: Client;
beforeAll(async () => {
  [host, sdk] = await Promise.all([
    connect(new OrderedClient({ name: 'host', version: '0' })),
    connect(new Client({ name: 'sdk', version: '0' })),
  ]);
});
afterAll(async () => {
  await Promise.all([host.close(), sdk.close()]);
});

/** The host's call of a case, as the connection sends it. */
const viaHost = (name: string) =>
  settle(
    sendToolCall(
      host,
      'reply',
      { case: name },
      { signal: new AbortController().signal, onProgress: () => {}, definition },
    ),
  );
/** The same call through the SDK's own result check: what every call went through before the quick check. */
const viaSdk = (name: string) =>
  settle(
    sdk.request(
      { method: 'tools/call', params: { name: 'reply', arguments: { case: name } } },
      { timeout: NO_SDK_TIMEOUT_MS },
    ),
  );

describe('the result check of a tools/call over stdio', () => {
  it.each(Object.keys(CASES))('settles the %s case exactly as the SDK does', async (name) => {
    const [ours, theirs] = await Promise.all([viaHost(name), viaSdk(name)]);
    expect(ours).toEqual(theirs);
  });

  it('refuses malformed results, naming what is wrong, as the SDK did', async () => {
    expect(await viaHost('text_without_text')).toEqual({
      refused: expect.stringMatching(/^Invalid result for tools\/call: /),
    });
    expect(await viaHost('image_with_bad_base64')).toEqual({
      refused: expect.stringContaining('Invalid Base64 string'),
    });
    expect(await viaHost('audio_with_bad_base64')).toEqual({
      refused: expect.stringContaining('Invalid Base64 string'),
    });
    expect(await viaHost('structured_content_array')).toEqual({
      refused: expect.stringContaining('structuredContent'),
    });
    const refused = Object.keys(CASES).slice(0, Object.keys(CASES).indexOf('plain_text'));
    for (const name of refused) expect(await viaHost(name), name).toHaveProperty('refused');
  });

  it('hands back what the SDK rewrites as the SDK rewrites it', async () => {
    expect(await viaHost('text_with_unknown_key')).toEqual({ result: { content: [{ type: 'text', text: 'x' }] } });
    expect(await viaHost('without_content')).toEqual({ result: { content: [], structuredContent: { a: 1 } } });
    expect(await viaHost('embedded_text_and_blob')).toEqual({
      result: { content: [{ type: 'resource', resource: { uri: 'file:///b', text: 't' } }] },
    });
  });
});

describe('isPlainToolResult', () => {
  it('takes the plain results a tool usually sends without the SDK schema', () => {
    for (const name of ['plain_text', 'empty', 'text_annotated', 'image', 'audio', 'embedded_text', 'embedded_blob'])
      expect(isPlainToolResult(CASES[name]), name).toBe(true);
    for (const name of ['resource_link', 'structured', 'tool_error', 'result_meta', 'extra_top_level_key'])
      expect(isPlainToolResult(CASES[name]), name).toBe(true);
  });

  it('leaves to the SDK schema every result it would refuse or rewrite', () => {
    const rewritten = ['text_with_unknown_key', 'text_with_last_modified', 'embedded_text_and_blob', 'without_content'];
    for (const name of [
      ...rewritten,
      'resource_link_with_icon',
      'structured_with_proto_key',
      'result_meta_numeric_token',
    ])
      expect(isPlainToolResult(CASES[name]), name).toBe(false);
    const malformed = Object.keys(CASES).slice(0, Object.keys(CASES).indexOf('plain_text'));
    for (const name of malformed) expect(isPlainToolResult(CASES[name]), name).toBe(false);
  });
});
