import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { ProtocolError, SdkError } from '@modelcontextprotocol/client';
import type { CallToolResult, ElicitRequest, Tool } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeAll,
  connectStdio,
  freshLogPath,
  LEGACY_FORM_TOOL_NAMES,
  readCallLog,
  TOOL_NAMES,
  waitForLogLine,
} from './testing/demo-harness.js';
import type { Negotiation } from './testing/demo-harness.js';

afterEach(closeAll);

const PROTOCOL_VERSION = { legacy: '2025-11-25', auto: '2026-07-28' } as const;
const PACKAGE = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };

function firstText(result: CallToolResult): string {
  const block = result.content[0];
  if (block?.type !== 'text') throw new Error(`expected a text block first, got ${JSON.stringify(block)}`);
  return block.text;
}

describe.each<Negotiation>(['legacy', 'auto'])('the demo server over stdio, negotiating %s', (negotiation) => {
  it('speaks the era the client negotiated', async () => {
    const { client } = await connectStdio({ negotiation });
    expect(client.getNegotiatedProtocolVersion()).toBe(PROTOCOL_VERSION[negotiation]);
    expect(client.getServerVersion()).toMatchObject({ name: 'airlock-demo', version: PACKAGE.version });
  });

  it('lists every tool, each with a title and a one-line description', async () => {
    const { client } = await connectStdio({ negotiation });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual([...TOOL_NAMES].sort());
    for (const tool of tools) {
      expect(tool.title, tool.name).toMatch(/\S/);
      expect(tool.description, tool.name).toMatch(/^[^\n]+$/);
    }
  });

  it('pages tools/list three at a time with --page-size 3, every tool reachable through the cursors', async () => {
    const { client } = await connectStdio({ negotiation, args: ['--page-size', '3'] });
    const pages: Tool[][] = [];
    // The raw request: client.listTools() without a cursor would walk every page itself.
    let page = await client.request({ method: 'tools/list', params: {} });
    pages.push(page.tools);
    while (page.nextCursor !== undefined) {
      page = await client.listTools({ cursor: page.nextCursor });
      pages.push(page.tools);
    }
    expect(pages.map((tools) => tools.length)).toEqual([3, 3, 3, 3, 3, 3, 3, 3]);
    expect(
      pages
        .flat()
        .map((tool) => tool.name)
        .sort(),
    ).toEqual([...TOOL_NAMES].sort());
    expect((await client.listTools()).tools).toHaveLength(TOOL_NAMES.length);
    await expect(client.listTools({ cursor: 'not-a-cursor' })).rejects.toMatchObject({ code: -32602 });
  });

  it('carries the annotations and _meta.ui each host case needs', async () => {
    const { client } = await connectStdio({ negotiation });
    const tools = new Map((await client.listTools()).tools.map((tool) => [tool.name, tool]));
    expect(tools.get('echo')?.annotations).toEqual({ readOnlyHint: true, idempotentHint: true, openWorldHint: false });
    expect(tools.get('search_notes')?.annotations).toEqual({ readOnlyHint: true, openWorldHint: false });
    expect(tools.get('write_note')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      idempotentHint: true,
      openWorldHint: false,
    });
    expect(tools.get('delete_note')?.annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(tools.get('run_command')?.annotations).toBeUndefined();
    expect(tools.get('fetch_url')?.annotations).toEqual({
      readOnlyHint: false,
      destructiveHint: false,
      openWorldHint: true,
    });
    expect(tools.get('search_notes')?.outputSchema).toMatchObject({ type: 'object', required: ['results'] });
    expect(tools.get('bad_structured')?.outputSchema).toMatchObject({
      properties: { count: { type: 'number' } },
      required: ['count'],
    });
    expect(tools.get('show_dashboard')?._meta).toEqual({ ui: { resourceUri: 'ui://demo/dashboard' } });
    expect(tools.get('app_refresh')?._meta).toEqual({
      ui: { resourceUri: 'ui://demo/dashboard', visibility: ['app'] },
    });
    expect(tools.has('legacy_view')).toBe(false);
    expect(tools.has('old_app_tool')).toBe(false);
  });

  it('serves the deprecated _meta forms only with --legacy-forms, after every other tool', async () => {
    const { client } = await connectStdio({ negotiation, args: ['--legacy-forms'] });
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining([...TOOL_NAMES]));
    expect(tools.slice(-2).map((tool) => tool.name)).toEqual([...LEGACY_FORM_TOOL_NAMES]);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('legacy_view')?._meta).toEqual({ 'ui/resourceUri': 'ui://demo/dashboard' });
    expect(byName.get('old_app_tool')?._meta).toEqual({ ui: { visibility: ['apps'] } });
    expect(firstText(await client.callTool({ name: 'legacy_view', arguments: {} }))).toBe('Legacy view shown.');
  });

  it('serves the dashboard view as an MCP App resource', async () => {
    const { client } = await connectStdio({ negotiation });
    const { contents } = await client.readResource({ uri: 'ui://demo/dashboard' });
    expect(contents[0]).toMatchObject({ uri: 'ui://demo/dashboard', mimeType: 'text/html;profile=mcp-app' });
    expect(contents[0] && 'text' in contents[0] ? contents[0].text : '').toContain('ui/initialize');
  });

  it('echoes the text it is given', async () => {
    const { client } = await connectStdio({ negotiation });
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hello, airlock' } });
    expect(result.content).toEqual([{ type: 'text', text: 'hello, airlock' }]);
  });

  it('returns one block of each content type, in order, with real PNG and WAV bytes', async () => {
    const { client } = await connectStdio({ negotiation });
    const { content } = await client.callTool({ name: 'rich_content', arguments: {} });
    expect(content.map((block) => block.type)).toEqual([
      'text',
      'image',
      'audio',
      'resource_link',
      'resource',
      'resource',
    ]);
    const [text, image, audio, link, embeddedText, embeddedBlob] = content;
    expect(text?.type === 'text' && text.text).toContain('```ts');
    expect(image).toMatchObject({ mimeType: 'image/png' });
    expect(Buffer.from(image?.type === 'image' ? image.data : '', 'base64').subarray(0, 8)).toEqual(
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    );
    expect(audio).toMatchObject({ mimeType: 'audio/wav' });
    expect(Buffer.from(audio?.type === 'audio' ? audio.data : '', 'base64').toString('latin1', 0, 4)).toBe('RIFF');
    expect(link).toMatchObject({ uri: 'demo://notes/1', mimeType: 'text/plain', size: expect.any(Number) });
    expect(embeddedText).toMatchObject({ resource: { uri: 'demo://notes/2', mimeType: 'text/markdown' } });
    expect(embeddedBlob).toMatchObject({
      resource: { uri: 'demo://files/blob.bin', mimeType: 'application/octet-stream', blob: expect.any(String) },
    });
  });

  it('returns exactly megabytes × 1,000,000 characters of numbered lines from huge_output', async () => {
    const { client } = await connectStdio({ negotiation });
    const text = firstText(await client.callTool({ name: 'huge_output', arguments: { megabytes: 1.5 } }));
    expect(text.length).toBe(1_500_000);
    expect(text.startsWith('line 000001: ')).toBe(true);
    expect(text).toContain('\nline 015000: ');
  });

  it('reports progress after every step of slow_task', async () => {
    const { client } = await connectStdio({ negotiation });
    const progress: unknown[] = [];
    const result = await client.callTool(
      { name: 'slow_task', arguments: { steps: 3, stepMs: 5 } },
      { onprogress: (event) => progress.push(event) },
    );
    expect(firstText(result)).toBe('done after 3 steps');
    expect(progress).toEqual([
      { progress: 1, total: 3, message: 'step 1 of 3' },
      { progress: 2, total: 3, message: 'step 2 of 3' },
      { progress: 3, total: 3, message: 'step 3 of 3' },
    ]);
  });

  it('tells the call log when the client cancels a hanging call', async () => {
    const log = freshLogPath();
    const { client } = await connectStdio({ negotiation, log });
    const controller = new AbortController();
    const call = client.callTool({ name: 'hang', arguments: {} }, { signal: controller.signal });
    await waitForLogLine(log, (line) => line.event === 'call' && line.tool === 'hang');
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(SdkError);
    await waitForLogLine(log, (line) => line.event === 'cancelled' && line.tool === 'hang');
    expect(readCallLog(log)).toEqual([
      { event: 'call', tool: 'hang', args: {} },
      { event: 'cancelled', tool: 'hang' },
    ]);
  });

  it('stops slow_task at once when the client cancels it', async () => {
    const log = freshLogPath();
    const { client } = await connectStdio({ negotiation, log });
    const controller = new AbortController();
    const call = client.callTool(
      { name: 'slow_task', arguments: { steps: 100, stepMs: 60_000 } },
      { signal: controller.signal },
    );
    await waitForLogLine(log, (line) => line.event === 'call' && line.tool === 'slow_task');
    controller.abort();
    await expect(call).rejects.toBeInstanceOf(SdkError);
    await waitForLogLine(log, (line) => line.event === 'cancelled' && line.tool === 'slow_task');
  });

  it('answers a failing tool with isError, and protocol_error with a JSON-RPC error that keeps -32602', async () => {
    const { client } = await connectStdio({ negotiation });
    const failed = await client.callTool({ name: 'fail_tool', arguments: { reason: 'testing' } });
    expect(failed.isError).toBe(true);
    expect(firstText(failed)).toContain('testing');
    const error: unknown = await client.callTool({ name: 'protocol_error', arguments: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('protocol_error') });
  });

  it('delivers bad_structured as sent, and a client that knows the schema rejects it', async () => {
    const { client } = await connectStdio({ negotiation });
    const raw = await client.callTool({ name: 'bad_structured', arguments: {} });
    expect(raw.structuredContent).toEqual({ count: 'many' });
    await client.listTools(); // now the client knows the outputSchema and validates against it
    await expect(client.callTool({ name: 'bad_structured', arguments: {} })).rejects.toMatchObject({ code: -32602 });
  });

  it('asks the user through a form and repeats the accepted answer', async () => {
    const log = freshLogPath();
    const { client } = await connectStdio({ negotiation, log, capabilities: { elicitation: { form: {} } } });
    const asked: ElicitRequest['params'][] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { name: 'Ana', age: 36 } };
    });
    const result = await client.callTool({ name: 'ask_user', arguments: {} });
    expect(firstText(result)).toBe(
      'The user answered the form with action "accept" and content {"name":"Ana","age":36}.',
    );
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      mode: 'form',
      requestedSchema: {
        type: 'object',
        properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0, maximum: 150 } },
        required: ['name'],
      },
    });
    expect(readCallLog(log)).toEqual([{ event: 'call', tool: 'ask_user', args: {} }]); // one call, however many rounds
  });

  it('does not ask a client that declared no elicitation capability', async () => {
    const { client } = await connectStdio({ negotiation });
    if (negotiation === 'legacy') {
      // 2025: the SDK's shim refuses to push the request and answers with a tool error.
      const result = await client.callTool({ name: 'ask_user', arguments: {} });
      expect(result.isError).toBe(true);
      expect(firstText(result)).toMatch(/did not declare the required capability/);
    } else {
      // 2026: the SDK answers -32021 (missing required client capability) instead of an input-required result.
      await expect(client.callTool({ name: 'ask_user', arguments: {} })).rejects.toMatchObject({ code: -32021 });
    }
  });

  it('asks the user to open a URL and reports the outcome', async () => {
    const { client } = await connectStdio({ negotiation, capabilities: { elicitation: { form: {}, url: {} } } });
    const completed: string[] = [];
    client.setNotificationHandler('notifications/elicitation/complete', (notification) => {
      completed.push(notification.params.elicitationId);
    });
    const asked: ElicitRequest['params'][] = [];
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params);
      return { action: 'accept' };
    });
    const result = await client.callTool({ name: 'connect_account', arguments: {} });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      mode: 'url',
      url: expect.stringMatching(/^https:\/\/example\.com\/connect\?session=/),
    });
    const url = asked[0]?.mode === 'url' ? asked[0].url : '';
    expect(firstText(result)).toBe(`Account connected: the user accepted and opened ${url}.`);
    if (negotiation === 'legacy') {
      // 2025: the completion notification precedes the result on the pipe, for the id the request carried.
      const id = asked[0] && 'elicitationId' in asked[0] ? asked[0].elicitationId : undefined;
      expect(completed).toEqual([id]);
    } else {
      expect(completed).toEqual([]); // 2026 has no elicitationId: the retry itself is the outcome
    }
  });

  it('announces a changed definition with a list_changed the client sees', async () => {
    let seen: (tools: Tool[] | null) => void = () => {};
    const refreshed = new Promise<Tool[] | null>((resolve) => (seen = resolve));
    const { client } = await connectStdio({
      negotiation,
      listChanged: { tools: { onChanged: (_error, tools) => seen(tools) } },
    });
    const before = (await client.listTools()).tools.find((tool) => tool.name === 'shape_shifter')?.description;
    const changed = await client.callTool({ name: 'change_definition', arguments: {} });
    const after = (await refreshed)?.find((tool) => tool.name === 'shape_shifter')?.description;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(firstText(changed)).toBe(after);
  });

  it('logs each call that reaches a tool with its arguments, and counts them in stats', async () => {
    const log = freshLogPath();
    const { client } = await connectStdio({ negotiation, log });
    await client.callTool({ name: 'echo', arguments: { text: 'one' } });
    await client.callTool({ name: 'echo', arguments: { text: 'two' } });
    await client.callTool({ name: 'write_note', arguments: { id: '9', text: 'new note' } });
    const stats = await client.callTool({ name: 'stats', arguments: {} });
    expect(stats.structuredContent).toEqual({ calls: { echo: 2, write_note: 1 } });
    expect(readCallLog(log)).toEqual([
      { event: 'call', tool: 'echo', args: { text: 'one' } },
      { event: 'call', tool: 'echo', args: { text: 'two' } },
      { event: 'call', tool: 'write_note', args: { id: '9', text: 'new note' } },
      { event: 'call', tool: 'stats', args: {} },
    ]);
  });

  it('finds the notes search_notes promises, with matching structured content', async () => {
    const { client } = await connectStdio({ negotiation });
    await client.listTools(); // the client validates structuredContent against the outputSchema from here on
    const result = await client.callTool({ name: 'search_notes', arguments: { query: 'NOTES', limit: 5 } });
    expect(result.structuredContent).toEqual({ results: [{ id: '2', title: 'Meeting notes' }] });
  });

  it('logs crash, then dies before answering', async () => {
    const log = freshLogPath();
    const { client } = await connectStdio({ negotiation, log });
    await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toMatchObject({
      code: 'CONNECTION_CLOSED',
    });
    expect(readCallLog(log)).toEqual([{ event: 'call', tool: 'crash', args: {} }]);
  });
});
